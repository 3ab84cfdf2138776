# Warm imports (boot module `_sandbar_warm`): before a pooled agent says ready, it imports the modules the
# host asked for (setting `preload`), so the code's own `import pandas` finds them loaded and costs nothing.
# It also puts Matplotlib's font list where Matplotlib looks for it. That list is built once per image on the
# host's side and delivered in the boot payload: with a read-only root and a fresh /workspace, Matplotlib
# would otherwise rebuild it (seconds of CPU) in every container. Nothing of the host is mounted for it.
import os
import re
import traceback

FONT_LIST_NAME = re.compile(r'^fontlist-v\d+\.json$')


def _matplotlib_cache_dir():
    """Where Matplotlib (matplotlib.get_cachedir) looks for its font list, without importing it."""
    configured = os.environ.get('MPLCONFIGDIR')
    if configured:
        return configured
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'matplotlib')


def _install_font_list(font_list):
    if not isinstance(font_list, dict):
        return
    name, data = font_list.get('name'), font_list.get('data')
    if not (isinstance(name, str) and FONT_LIST_NAME.match(name) and isinstance(data, str)):
        return
    try:
        directory = _matplotlib_cache_dir()
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, name), 'w', encoding='utf-8') as f:
            f.write(data)
    except OSError:
        pass  # Matplotlib builds its own, as it would without us


def _preload(plan):
    """Imports each module; with `optional` (the default list) a module the image lacks is skipped quietly."""
    loaded, failed = [], []
    modules = plan.get('modules') if isinstance(plan, dict) else None
    for name in modules if isinstance(modules, list) else []:
        if not isinstance(name, str):
            continue
        try:
            __import__(name)
            loaded.append(name)
        except ImportError as exc:
            if not plan.get('optional') or getattr(exc, 'name', None) not in (name, name.split('.')[0]):
                failed.append({'module': name, 'error': '%s: %s' % (type(exc).__name__, exc)})
        except BaseException as exc:  # SystemExit or a crash in the module's own code: report, keep booting
            failed.append({'module': name, 'error': traceback.format_exception_only(type(exc), exc)[-1].strip()})
    return loaded, failed


def on_boot(boot_payload, send):
    _install_font_list(boot_payload.get('mplFontCache'))
    plan = boot_payload.get('preload')
    if plan:
        loaded, failed = _preload(plan)
        send({'type': 'preload', 'loaded': loaded, 'failed': failed})
