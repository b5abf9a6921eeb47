// cairn-setup-plugin v1 — written by `cairn setup opencode`; running it again
// updates this file and `cairn setup opencode --uninstall` removes it, so edits
// here do not last.
//
// What it does in OpenCode 1.x: before a model call it asks cairn for the memory
// block of the session (once per user request; the same bytes are reused for the
// calls that follow, so the prompt cache holds) and adds it to the system prompt;
// when a session goes idle it hands the session to cairn to import, without
// waiting. It never throws and never holds the chat up for long: if cairn is
// slow, missing or failing, the chat goes on without memory.

const CAIRN = __CAIRN__;
const CAIRN_HOME = __CAIRN_HOME__;
const WAIT_MS = 8000; // the longest a model call waits for the block
const PROMPT_CHARS = 4000; // how much of the request is passed for recall

// OpenCode runs the system transform for its own side requests too: the
// session's title is asked of a model with this system prompt. Memory is
// for the agent's turns; a title request gets none (and costs no recall).
const SIDE_REQUESTS = ["You are a title generator"];

function sideRequest(system) {
  return system.some((s) => typeof s === "string" && SIDE_REQUESTS.some((m) => s.includes(m)));
}

function childEnv() {
  const env = { ...process.env };
  if (CAIRN_HOME) env.CAIRN_HOME = CAIRN_HOME;
  return env;
}

// timeout resolves to null after ms; cancel stops its timer, so a call
// that finished leaves nothing pending.
function timeout(ms) {
  let timer;
  const p = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  p.cancel = () => clearTimeout(timer);
  return p;
}

// ask runs cairn and returns its stdout, or null when it failed or took
// too long.
async function ask($, args) {
  try {
    if (typeof Bun !== "undefined" && typeof Bun.spawn === "function") {
      const proc = Bun.spawn([CAIRN, ...args], {
        env: childEnv(),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "ignore",
      });
      const done = (async () => {
        const text = await new Response(proc.stdout).text();
        return (await proc.exited) === 0 ? text : null;
      })();
      const limit = timeout(WAIT_MS);
      const out = await Promise.race([done, limit]);
      limit.cancel();
      if (out === null) {
        try {
          proc.kill();
        } catch {}
      }
      return out;
    }
    if (typeof $ === "function") {
      const run = $`${CAIRN} ${args}`.env(childEnv()).quiet().nothrow();
      const limit = timeout(WAIT_MS);
      const res = await Promise.race([run, limit]);
      limit.cancel();
      if (!res || res.exitCode !== 0) return null;
      return res.stdout.toString();
    }
  } catch {}
  return null;
}

// tell starts cairn and does not wait for it.
function tell($, args) {
  try {
    if (typeof Bun !== "undefined" && typeof Bun.spawn === "function") {
      const proc = Bun.spawn([CAIRN, ...args], {
        env: childEnv(),
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
      });
      if (typeof proc.unref === "function") proc.unref();
      return;
    }
    if (typeof $ === "function") {
      $`${CAIRN} ${args}`.env(childEnv()).quiet().nothrow().catch(() => {});
    }
  } catch {}
}

export const CairnPlugin = async ({ $, directory, worktree } = {}) => {
  const cwd = directory || worktree || process.cwd();
  const sessions = new Map(); // session id -> { prompt, askedFor, block }
  const session = (id) => {
    let s = sessions.get(id);
    if (!s) {
      s = { prompt: "", askedFor: null, block: "" };
      sessions.set(id, s);
    }
    return s;
  };

  return {
    "chat.message": async (input, output) => {
      try {
        const id = input && input.sessionID;
        const parts = output && Array.isArray(output.parts) ? output.parts : [];
        const text = parts
          .filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string")
          .map((p) => p.text)
          .join("\n")
          .trim();
        if (id && text) session(id).prompt = text.slice(0, PROMPT_CHARS);
      } catch {}
    },

    "experimental.chat.system.transform": async (input, output) => {
      try {
        const id = input && input.sessionID;
        if (!id || !output || !Array.isArray(output.system) || sideRequest(output.system)) return;
        const s = session(id);
        if (s.askedFor !== s.prompt) {
          const args = ["hook", "opencode", "system", "--session", id, "--cwd", cwd];
          if (s.prompt) args.push("--prompt", s.prompt);
          const out = await ask($, args);
          s.askedFor = s.prompt;
          if (out !== null) s.block = out.trim();
        }
        // OpenCode rebuilds the system prompt for every call: add the block
        // each time, once.
        if (s.block && !output.system.includes(s.block)) output.system.push(s.block);
      } catch {}
    },

    event: async ({ event } = {}) => {
      try {
        if (!event || !event.properties) return;
        if (event.type === "session.idle" && event.properties.sessionID) {
          tell($, ["hook", "opencode", "idle", "--session", event.properties.sessionID, "--cwd", cwd]);
        } else if (event.type === "session.deleted" && event.properties.info) {
          sessions.delete(event.properties.info.id);
        }
      } catch {}
    },
  };
};

export default { id: "cairn", server: CairnPlugin };
