# BenchExec tool-info module for rely, a verifier for multi-threaded C programs.
# With contrib/benchexec on PYTHONPATH, a benchmark definition names it as
# <benchmark tool="rely_benchexec.rely">; docs/svcomp.md says how to run it.

import os

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """
    rely, a verifier for multi-threaded C programs: `rely svcomp` on the task's C file
    with its property file, answering `Result: TRUE | FALSE(unreach-call) | UNKNOWN`
    as its last line. Only the property unreach-call is checked (any other is UNKNOWN).

    The executable is cli/rely.js in the folder --tool-directory names (a clone, built);
    without that option, `rely` on PATH (an installed package), else ./cli/rely.js.
    Added to the command line unless the benchmark definition gives them:
    --prop (the task's property file), --data-model (the task's options.data_model),
    --timeout (the smaller of the CPU-time and wall-time limits, in seconds) and
    --max-memory (the memory limit, in MiB). A witness is written where the benchmark
    definition asks for one, e.g. <option name="--witness">witness.yml</option>.
    """

    REQUIRED_PATHS = ["cli", "dist", "node_modules", "package.json"]

    def name(self):
        return "rely"

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("rely")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("rely.js", subdir="cli")

    def version(self, executable):
        return self._version_from_tool(executable)

    def program_files(self, executable):
        # The package's root is the folder above cli/rely.js; an installed `rely` links to it.
        script = executable
        if os.path.basename(executable) != "rely.js":
            script = os.path.realpath(executable)
        return [executable] + self._program_files_from_executable(
            script, self.REQUIRED_PATHS, parent_dir=True
        )

    def cmdline(self, executable, options, task, rlimits):
        extra = []
        if task.property_file and "--prop" not in options:
            extra += ["--prop", task.property_file]
        data_model = (task.options or {}).get("data_model")
        if data_model and "--data-model" not in options:
            if data_model not in ("ILP32", "LP64"):
                raise benchexec.tools.template.UnsupportedFeatureException(
                    f"rely knows the data models ILP32 and LP64, not {data_model}"
                )
            extra += ["--data-model", data_model]
        # rely's --timeout is wall time; on one core it ends no later than either limit.
        limits = [t for t in (rlimits.cputime, rlimits.walltime) if t]
        if limits and "--timeout" not in options:
            extra += ["--timeout", str(min(limits))]
        # rely answers UNKNOWN (out of memory) at its own limit instead of being killed.
        # (It refuses a limit below 16 MiB, in which it could not even load.)
        if rlimits.memory and rlimits.memory >= 16 * 2**20 and "--max-memory" not in options:
            extra += ["--max-memory", str(rlimits.memory // 2**20)]
        return [executable, "svcomp", *options, *extra, task.single_input_file]

    def determine_result(self, run):
        # `rely svcomp` exits 0 with any answer; anything else is a failure, whatever
        # Result: line came before it (BenchExec names the signal or exit code).
        if run.exit_code.signal or run.exit_code.value:
            return result.RESULT_ERROR
        verdicts = [line for line in run.output if line.startswith("Result:")]
        if not verdicts:
            return f"{result.RESULT_ERROR} (no Result: line)"
        verdict = verdicts[-1][len("Result:") :].strip()
        if verdict == "TRUE":
            return result.RESULT_TRUE_PROP
        if verdict == "FALSE(unreach-call)":
            return result.RESULT_FALSE_REACH
        if verdict == "UNKNOWN":
            return result.RESULT_UNKNOWN
        return f"{result.RESULT_ERROR} (Result: {verdict})"
