from figgen._cli.launch import main

main()
