// HttpExampleBrowserIT's browser: Debian's chromium, headless, driven by playwright-core. Loads the http example's
// web page, waits for live messages from the server's PUB, sends a request to the workers from the page and waits
// for the reply, takes a screenshot, and prints one JSON line with what it saw for the test to assert on.
// Also records what the browser's WebSocket does with the subprotocol "ZWS2.0/NULL" (docs/sockets.md).
// Usage: node browser_check.mjs PAGE_URL SCREENSHOT_PATH   (NODE_PATH: the node_modules holding playwright-core;
// CHROMIUM: the browser, /usr/bin/chromium by default)
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.NODE_DIR || process.cwd(), "package.json"));
const { chromium } = require("playwright-core");

const [url, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // A self-signed certificate in the wss:// run.
  args: ["--ignore-certificate-errors"],
});
const result = { browser: browser.version(), errors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 560 }, ignoreHTTPSErrors: true });
  page.on("pageerror", (e) => result.errors.push("pageerror: " + e.message));
  page.on("console", (m) => { if (m.type() === "error") result.errors.push("console: " + m.text()); });
  await page.goto(url);
  result.slashSubprotocol = await page.evaluate(() => {
    try {
      new WebSocket("ws://127.0.0.1:9/", "ZWS2.0/NULL").close();
      return "accepted";
    } catch (e) {
      return e.name + ": " + e.message;
    }
  });
  await page.waitForFunction(() => document.querySelectorAll("#stats li").length >= 2, null, { timeout: 15000 });
  await page.fill("#body", "hello from chromium");
  // Three at once: zws.js sends them one after another, REQ-style, each when the last reply is in.
  for (let i = 0; i < 3; i++) await page.click("#send");
  await page.waitForFunction(() => document.querySelectorAll("#replies li").length >= 3, null, { timeout: 15000 });
  // A live message after the request: the workers' count includes it.
  await page.waitForFunction(() => document.querySelector("#stats li")?.textContent.includes("served 3 "),
    null, { timeout: 15000 });
  result.stats = await page.locator("#stats li").allTextContents();
  result.replies = await page.locator("#replies li").allTextContents();
  result.states = [await page.textContent("#stats-state"), await page.textContent("#work-state")];
  await page.screenshot({ path: screenshot });
} catch (e) {
  result.errors.push("driver: " + e.message);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
