# Which line of the user's code made a host call: the agent sends it with each rpc_request, so a person asked
# to approve a tool call sees the code that wants it (the host shows that line from its own copy of the code;
# the text sent here is for reading frames). Delivered as the boot module `_sandbar_code_line`; the source
# comes from the start frame (not linecache, which user code can rewrite). Python 3.8+, stdlib only.
import re
import sys

SANDBOX_FILENAME = '<sandbox>'  # what the agent compiles user code as
MAX_TEXT = 200  # characters of the line sent; the host bounds it again
ORIGIN_DEPTH = 8  # frames remembered where each coroutine was made (only read when the stack has no user frame)

_lines = []


def on_start(start):
    """Keeps the run's source and, when the run loaded MCP servers (whose calls a person may be asked about),
    has coroutines remember where they were made: a tool call scheduled with asyncio.gather() or
    create_task() runs in a task whose stack holds no user frame, only that origin. Tracking roughly doubles
    the cost of making a coroutine (about 1.5 us), so runs that cannot be asked about go without it."""
    global _lines
    start = start if isinstance(start, dict) else {}
    code = start.get('code')
    # The compiler's line breaks (splitlines() would also break at \f, \x1c, \u2028, ...).
    _lines = re.split(r'\r\n|\r|\n', code) if isinstance(code, str) else []
    context = start.get('context') if isinstance(start.get('context'), dict) else {}
    mcp = context.get('mcp') if isinstance(context.get('mcp'), dict) else {}
    if mcp.get('loaded'):
        try:
            sys.set_coroutine_origin_tracking_depth(ORIGIN_DEPTH)
        except (AttributeError, ValueError):
            pass


def _clean(text):
    """One line of plain text: control characters (C0, DEL, C1) become spaces, runs of blanks one space."""
    text = ''.join(' ' if (ord(c) < 32 or 127 <= ord(c) <= 159) else c for c in text)
    text = ' '.join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + '\u2026'


def _describe(lineno):
    if not isinstance(lineno, int) or lineno < 1:
        return None
    text = _lines[lineno - 1] if lineno <= len(_lines) else ''
    return {'line': lineno, 'text': _clean(text)}


def _task_origin():
    """Where the current asyncio task's coroutine was made, if that was in user code."""
    try:
        import asyncio
        task = asyncio.current_task()
    except (ImportError, RuntimeError):
        return None
    origin = getattr(task.get_coro(), 'cr_origin', None) if task is not None else None
    for filename, lineno, _ in origin or ():
        if filename == SANDBOX_FILENAME:
            return _describe(lineno)
    return None


def calling_line():
    """{'line': N, 'text': '...'} for the innermost user frame calling now, else the task's origin, else None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == SANDBOX_FILENAME:
            return _describe(frame.f_lineno)
        frame = frame.f_back
    return _task_origin()
