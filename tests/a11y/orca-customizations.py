# orca-customizations.py — loaded by Orca 43 from the user-prefs directory the screen-reader harness gives it
# (`orca -u DIR`; settings_manager._loadUserCustomizations). It is not part of the page.
#
# 1. Settings for a repeatable session: no say-all when a page loads (the harness walks the page itself), no
#    key echo (the transcript is what the page makes Orca say, not the names of the keys pressed), no braille
#    (no display) and no sounds.
# 2. Orca's own speech log: orca/speech.py writes every utterance it sends to the speech server to the Python
#    logger "speech" ("SPEECH OUTPUT: '…'", the logger Orca keeps for its regression tests, orca/logger.py).
#    A file handler on that logger is the transcript: one record per utterance, each starting with \x1e and the
#    milliseconds since Orca started, so an utterance holding a newline stays one record.
import logging
import os

import orca.settings as settings

settings.sayAllOnLoad = False
settings.enableKeyEcho = False
settings.enableBraille = False
settings.enableSound = False

_path = os.environ.get("ATTNPLAY_ORCA_TRANSCRIPT")
if _path:
    _handler = logging.FileHandler(_path, encoding="utf-8")
    _handler.setFormatter(logging.Formatter("\x1e%(relativeCreated)d\t%(message)s"))
    _handler.terminator = "\n"
    _log = logging.getLogger("speech")
    _log.setLevel(logging.INFO)
    _log.addHandler(_handler)
