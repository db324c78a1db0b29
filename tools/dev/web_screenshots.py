"""Regenerate docs/img/board-*.png: the web board of the three games and a variant, mid-game.

    python -m provost.tools.dev.web_screenshots [--out docs/img] [--chromium PATH]

Needs the web-test extra (starlette, uvicorn, playwright) and a Chromium (Playwright's own, or a
system one: --chromium, PROVOST_CHROMIUM, or chromium on PATH).  One human seat among random
bots, seeded, clicked a fixed number of decisions in, so the pictures change only with the rules
or the page.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = [  # file, ruleset, players, clicks
    ("board-caylus.png", "caylus", 4, 17),
    ("board-caylus1303.png", "caylus1303", 3, 12),
    ("board-ys.png", "ys", 4, 10),
    ("board-caylus-brewery.png", os.path.join(ROOT, "rulesets", "examples", "caylus.brewery.rules"), 3, 6),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"))
    ap.add_argument("--chromium", default=os.environ.get("PROVOST_CHROMIUM") or shutil.which("chromium"))
    args = ap.parse_args(argv)

    import uvicorn
    from playwright.sync_api import sync_playwright

    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.app import create_app

    offered = _offered(SHOTS[-1][1])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(offered, {}, tempfile.mkdtemp()), host="127.0.0.1",
                                        port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    base = "http://127.0.0.1:%d" % port
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/api/rulesets")
            break
        except OSError:
            time.sleep(0.1)
    os.makedirs(args.out, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"]) if args.chromium else p.chromium.launch()
        for name, ruleset, players, clicks in SHOTS:
            rs = offered[0]["ruleset"] if ruleset.endswith(".rules") else ruleset
            req = urllib.request.Request(base + "/api/games", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"ruleset": rs, "players": players, "seed": 7,
                                                          "agents": ["human", "random"]}).encode())
            g = json.load(urllib.request.urlopen(req))
            page = b.new_page(viewport={"width": 1440, "height": 1000})
            page.goto(base + g["seats"][0]["url"] + "?speed=0")
            rng = random.Random(7)
            for _ in range(clicks):
                page.wait_for_selector("button.opt", timeout=60000)
                before = page.locator("#app").get_attribute("data-n")
                buttons = page.locator("button.opt")
                buttons.nth(rng.randrange(buttons.count())).click()
                page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
            page.wait_for_selector("button.opt, #result", timeout=60000)
            path = os.path.join(args.out, name)
            page.screenshot(path=path, full_page=True)
            print("wrote", os.path.relpath(path))
            page.close()
        b.close()
    srv.should_exit = True
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
