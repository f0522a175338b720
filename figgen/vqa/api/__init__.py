"""What a plot kind imports to ask and describe (below the kinds): question families, the
figure context that asks, answerability and balance rules, panel locations, findings and the
point questions several kinds share. :mod:`.reading` holds what a reader reads off a drawing."""
