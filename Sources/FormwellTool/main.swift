// The `formwell` command-line tool: `formwell check SPEC DATA` validates records against a form spec.
// Everything here is dispatch; see CLI/ for arguments and help, Check/ for the run itself.
import Glibc

exit(Tool.run(Array(CommandLine.arguments.dropFirst())))
