# Host CPU of a command's whole process tree, conmon and containers included: we become a child
# subreaper, so every process the command starts (and every daemon it double-forks, like conmon) is
# reaped by us and its CPU lands in our RUSAGE_CHILDREN (microseconds). The command sends SIGUSR1 at the
# start and the end of the phase it wants measured; prints {"phaseMs": ...} as its last line.
import ctypes, json, os, resource, signal, sys

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
marks = []


def mark(*_):
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    marks.append((ru.ru_utime + ru.ru_stime) * 1000)


signal.signal(signal.SIGUSR1, mark)
child = os.fork()
if child == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
status = 0
while True:
    try:
        pid, st = os.wait()
        if pid == child:
            status = os.waitstatus_to_exitcode(st)
    except ChildProcessError:
        break
print(json.dumps({'phaseMs': round(marks[1] - marks[0], 1) if len(marks) >= 2 else None}))
sys.exit(status)
