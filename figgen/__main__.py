from figgen.launch import main

main()
