package org.zeromq;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@link ZAuth}'s actor: a REP bound at {@code inproc://zeromq.zap.01} answering the context's ZAP requests, a PAIR
 * for the replies channel, and the commands of the pipe. Its state (address lists, the deciders' configuration) is
 * touched only on the actor's thread, between two requests.
 */
final class ZapHandler extends ZActor.SimpleActor {
    static final String ENDPOINT = "inproc://zeromq.zap.01";

    private final String actorName;
    private final Map<String, ZAuth.Auth> auths;
    private final Set<String> allowed = new HashSet<>();
    private final Set<String> denied = new HashSet<>();
    /** The replies channel's name, and the word that locks its agent when the handler ends. */
    private final String repliesAddress = "inproc://zauth-replies-" + UUID.randomUUID();
    private ZMQ.Socket replies;
    private boolean repliesEnabled;
    private boolean verbose;

    ZapHandler(String actorName, Map<String, ZAuth.Auth> auths) {
        this.actorName = actorName;
        this.auths = new HashMap<>(auths);
    }

    /** The caller's end of the replies channel, in {@code ctx}. */
    ZAgent repliesAgent(ZContext ctx) {
        ZMQ.Socket pipe = ctx.createSocket(SocketType.PAIR);
        pipe.connect(repliesAddress);
        return new ZAgent.SimpleAgent(pipe, repliesAddress);
    }

    @Override
    public String premiere(ZMQ.Socket pipe) {
        return actorName;
    }

    @Override
    public List<ZMQ.Socket> createSockets(ZContext ctx, Object... args) {
        replies = ctx.createSocket(SocketType.PAIR);
        return List.of(ctx.createSocket(SocketType.REP), replies);
    }

    @Override
    public void start(ZMQ.Socket pipe, List<ZMQ.Socket> sockets, ZPoller poller) {
        ZMQ.Socket handler = sockets.get(0);
        boolean bound;
        try {
            bound = replies.bind(repliesAddress) && handler.bind(ENDPOINT);
        } catch (ZMQException e) {
            bound = false;
        }
        if (bound) {
            poller.register(handler, ZPoller.POLLIN);
        }
        pipe.send(bound ? ZAuth.OK : ZAuth.ERROR);
    }

    @Override
    public boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events) {
        ZMsg msg = ZMsg.recvMsg(pipe);
        String command = msg == null ? null : msg.popString();
        if (command == null) {
            return false;
        }
        try {
            return command(pipe, command, msg);
        } finally {
            msg.destroy();
        }
    }

    /** Runs one command and answers it; false for TERMINATE, which ends the actor. */
    private boolean command(ZMQ.Socket pipe, String command, ZMsg args) {
        switch (command) {
        case ZAuth.ALLOW:
            allowed.add(args.popString());
            break;
        case ZAuth.DENY:
            denied.add(args.popString());
            break;
        case ZAuth.VERBOSE:
            verbose = Boolean.parseBoolean(args.popString());
            break;
        case ZAuth.REPLIES:
            repliesEnabled = Boolean.parseBoolean(args.popString());
            break;
        case ZAuth.TERMINATE:
            if (repliesEnabled) {
                replies.send(repliesAddress);
            }
            ZAuth.trace(verbose, "ZAuth: Terminated");
            pipe.send(ZAuth.OK);
            return false;
        default:
            ZAuth.Auth auth = auths.get(command);
            if (auth == null) {
                ZAuth.trace(true, "ZAuth: Invalid command %s", command);
                pipe.send(ZAuth.ERROR);
                return true;
            }
            pipe.send(auth.configure(args, verbose) ? ZAuth.OK : ZAuth.ERROR);
            return true;
        }
        ZAuth.trace(verbose, "ZAuth: %s done", command);
        pipe.send(ZAuth.OK);
        return true;
    }

    @Override
    public boolean stage(ZMQ.Socket socket, ZMQ.Socket pipe, ZPoller poller, int events) {
        ZMsg msg = ZMsg.recvMsg(socket);
        if (msg == null) {
            return false;
        }
        ZAuth.ZapRequest request = new ZAuth.ZapRequest(socket, msg);
        msg.destroy();
        ZMQ.Socket copy = repliesEnabled ? replies : null;
        if (!request.isWellFormed()) {
            request.reply(500, "malformed ZAP request", copy);
            return true;
        }
        if (decide(request)) {
            request.reply(200, ZAuth.OK, copy);
        } else {
            // What an Auth may have set for a refused peer is not reported.
            request.userId = null;
            request.metadata = null;
            request.reply(400, "NO ACCESS", copy);
        }
        return true;
    }

    /** The address lists first (the allow list, if any, alone); then the mechanism's decider. */
    private boolean decide(ZAuth.ZapRequest request) {
        if (!allowed.isEmpty()) {
            boolean listed = allowed.contains(request.address);
            ZAuth.trace(verbose, "ZAuth: %s address = %s", listed ? "Passed (whitelist)" : "Denied (not in whitelist)",
                    request.address);
            if (!listed) {
                return false;
            }
        } else if (denied.contains(request.address)) {
            ZAuth.trace(verbose, "ZAuth: Denied (blacklist) address = %s", request.address);
            return false;
        }
        ZAuth.Auth auth = auths.get(request.mechanism);
        if (auth == null) {
            ZAuth.trace(true, "ZAuth: Skipping unhandled mechanism %s", request.mechanism);
            return false;
        }
        return auth.authorize(request, verbose);
    }
}
