#!/usr/bin/env python3
"""Opens an ARSim report.html in headless Chromium and checks it through the DevTools
protocol (--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4).

Fails (exit 1) on any uncaught exception, console error or assert, error log entry (e.g. a
resource that did not load), JavaScript dialog (an alert() from injected markup), page-side
error hook (a title starting with "ERROR"), or a missing timeline, map or contact sheet.
Saves a screenshot of the page. Every wait is bounded; Chromium is killed at the deadline.

usage: chromium-report-check.py REPORT.html SCREENSHOT.png [--min-thumbnails N]
       [--min-markers N] [--forbid-dialogs]
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

DEADLINE_SECONDS = 90


class DevTools:
    def __init__(self, chromium, user_data):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        # Our own ends must not reach Chromium (an inherited write end would hide its exit).
        os.set_inheritable(self.to_browser, False)
        os.set_inheritable(self.from_browser, False)

        def child_fds():
            # Chromium reads commands on fd 3 and writes replies and events on fd 4.
            # Copies first: either end may itself be 3 or 4, and dup2 onto itself would keep
            # its close-on-exec flag.
            read_copy, write_copy = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_copy, 3, inheritable=True)
            os.dup2(write_copy, 4, inheritable=True)

        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             "--mute-audio", "--remote-debugging-pipe", "--user-data-dir=" + user_data,
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
            # close_fds would run after preexec_fn and close 3 and 4 again.
            close_fds=False, preexec_fn=child_fds)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + DEADLINE_SECONDS

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.next_id

    def read_message(self, timeout):
        while b"\0" not in self.buffer:
            remaining = min(timeout, self.deadline - time.monotonic())
            if remaining <= 0:
                raise TimeoutError("no reply from Chromium in time")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if not ready:
                raise TimeoutError("no reply from Chromium in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe (crashed?)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=30):
        wanted = self.send(method, params, session)
        while True:
            message = self.read_message(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_event(self, method, timeout):
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            message = self.read_message(end - time.monotonic())
            if message.get("method") == method:
                return message
            self.events.append(message)
        raise TimeoutError(f"no {method} within {timeout} s")

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.events.append(self.read_message(max(0.01, end - time.monotonic())))
            except TimeoutError:
                break

    def close(self):
        try:
            self.send("Browser.close")
            self.process.wait(timeout=10)
        except Exception:
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def problems_in(events):
    found = []
    for event in events:
        method = event.get("method")
        params = event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            found.append(f"uncaught exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            values = [a.get("value", a.get("description", "")) for a in params.get("args", [])]
            found.append(f"console.{params.get('type')}: {' '.join(map(str, values))}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            found.append(f"log error ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}")
        elif method == "Page.javascriptDialogOpening":
            found.append(f"JavaScript dialog opened: {params.get('message')!r}")
    return found


CHECK = """JSON.stringify({
  title: document.title,
  ready: document.body.getAttribute('data-report-ready'),
  timeline: !!document.querySelector('#timeline-svg'),
  lanes: document.querySelectorAll('#timeline-svg g.lane').length,
  markers: document.querySelectorAll('#timeline-svg circle.event').length,
  map: !!document.querySelector('#map-svg'),
  paths: document.querySelectorAll('#map-svg polyline.camera-path').length,
  items: document.querySelectorAll('#map-svg g.item').length,
  thumbnails: document.querySelectorAll('.thumb img').length,
  brokenImages: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).length,
  timings: document.querySelectorAll('#timings tr').length,
  scripts: document.scripts.length,
  height: document.documentElement.scrollHeight
})"""


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    report, screenshot = os.path.abspath(args[0]), args[1]
    options = dict(zip(args[2::2], args[3::2]))
    min_thumbnails = int(options.get("--min-thumbnails", "1"))
    min_markers = int(options.get("--min-markers", "1"))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check-report: chromium not found; install the Debian package 'chromium' "
              "(Scripts/install-dependencies)", file=sys.stderr)
        return 69
    with tempfile.TemporaryDirectory(prefix="arsim-chromium-") as user_data:
        tools = DevTools(chromium, user_data)
        try:
            target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = tools.call(
                "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for method in ("Runtime.enable", "Log.enable", "Page.enable"):
                tools.call(method, session=session)
            tools.call("Emulation.setDeviceMetricsOverride",
                       {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                       session=session)
            tools.call("Page.navigate", {"url": "file://" + report}, session=session)
            tools.wait_event("Page.loadEventFired", timeout=45)
            tools.drain(0.5)  # late errors (images decoding, deferred script)
            result = tools.call("Runtime.evaluate",
                                {"expression": CHECK, "returnByValue": True}, session=session)
            if "exceptionDetails" in result:
                raise RuntimeError(f"check expression failed: {result['exceptionDetails']}")
            state = json.loads(result["result"]["value"])
            height = min(int(state["height"]), 6000)
            tools.call("Emulation.setDeviceMetricsOverride",
                       {"width": 1200, "height": height, "deviceScaleFactor": 1, "mobile": False},
                       session=session)
            shot = tools.call("Page.captureScreenshot", {"format": "png"}, session=session)
            with open(screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
            tools.drain(0.2)
        except Exception as error:  # a protocol failure is a check failure
            tools.close()
            tools.stderr.seek(0)
            tail = tools.stderr.read().decode(errors="replace").splitlines()[-10:]
            print(f"check-report: {error}\n  chromium stderr:\n    " + "\n    ".join(tail),
                  file=sys.stderr)
            return 1
        tools.close()
    problems = problems_in(tools.events)
    if state["title"].startswith("ERROR"):
        problems.append(f"page error hook: {state['title']}")
    if state["ready"] != "yes":
        problems.append("the page's script did not finish")
    if not state["timeline"] or state["markers"] < min_markers:
        problems.append(f"timeline missing or with {state['markers']} markers (< {min_markers})")
    if not state["map"] or state["paths"] < 1:
        problems.append("map missing or without a camera path")
    if state["thumbnails"] < min_thumbnails:
        problems.append(f"{state['thumbnails']} thumbnails (< {min_thumbnails})")
    if state["brokenImages"]:
        problems.append(f"{state['brokenImages']} images did not load")
    print(f"check-report: {report}: {json.dumps(state)}")
    for problem in problems:
        print(f"check-report: FAIL: {problem}", file=sys.stderr)
    print(f"check-report: screenshot {screenshot}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
