# BenchExec tool-info modules for rely (BenchExec takes a module outside its own
# benchexec.tools package only by a name with a package: rely_benchexec.rely).
