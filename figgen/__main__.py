from figgen.cli import main

main()
