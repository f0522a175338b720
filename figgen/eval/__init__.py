"""Ask multimodal models figgen questions, parse their answers, score them and track cost."""
