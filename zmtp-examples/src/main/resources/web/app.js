// The page's script: two ZeroMQ sockets to the server it came from (ws:// over http, wss:// over https).
import { ZwsSocket } from "./zws.js";

const base = (location.protocol === "https:" ? "wss://" : "ws://") + location.host;
const text = new TextDecoder();
const MAX_LINES = 8;

function show(id, state) {
  const el = document.getElementById(id);
  el.textContent = state;
  el.className = "state " + state;
}

function add(listId, line, newestFirst) {
  const list = document.getElementById(listId);
  const li = document.createElement("li");
  li.textContent = line;
  if (newestFirst) list.prepend(li); else list.append(li);
  while (list.children.length > MAX_LINES) list.removeChild(newestFirst ? list.lastChild : list.firstChild);
}

document.getElementById("stats-url").textContent = base + "/zmq/stats";
document.getElementById("work-url").textContent = base + "/zmq/work";

// Live stats: a SUB to the server's PUB. Each message is [topic, JSON].
const stats = new ZwsSocket(base + "/zmq/stats");
stats.onopen = () => show("stats-state", "open");
stats.onclose = (e) => show("stats-state", "closed");
stats.onmessage = ([topic, body]) => {
  const s = JSON.parse(text.decode(body));
  add("stats", `${text.decode(topic)} #${s.seq}: served ${s.served} at ${s.time}`, true);
};
stats.subscribe("stats");

// Requests: REQ-style to the workers' ROUTER; each reply is the worker's JSON.
const work = new ZwsSocket(base + "/zmq/work");
work.onopen = () => show("work-state", "open");
work.onclose = (e) => show("work-state", "closed");
document.getElementById("form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = document.getElementById("body").value;
  try {
    const [reply] = await work.request(body);
    add("replies", `"${body}" -> ${text.decode(reply)}`, false);
  } catch (e) {
    add("replies", `"${body}" -> ${e.message}`, false);
  }
});
