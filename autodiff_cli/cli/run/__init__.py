"""`autodiff run PATH...` (`command`) and the script files every command reads (`script_files`)."""
