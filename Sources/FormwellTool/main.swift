// Placeholder: the command-line tool is being written.
print("formwell: not yet implemented")
