package org.zeromq;

import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The caller's side of a background task, as JeroMQ 0.6.0's {@code ZAgent}: messages to and from the task over a
 * pipe (a PAIR socket), with a lock. {@link ZStar} and {@link ZActor} are agents of their task.
 *
 * <h2>The lock</h2>
 * An agent made with a lock word closes its pipe when it receives a one-frame message holding exactly that word
 * (the task sends it as it ends), and from then on sends nothing ({@code false}) and receives nothing ({@code null});
 * {@link #sign()} tells whether it is still open. A closed context locks it as well.
 */
public interface ZAgent {
    /** Waits for a message from the task; null once locked or the context is closed. */
    ZMsg recv();

    /** Waits up to {@code timeout} ms for a message from the task; null then, or once locked. */
    ZMsg recv(int timeout);

    /** A message from the task, waiting for it if {@code wait}; null if none (not waiting), or once locked. */
    ZMsg recv(boolean wait);

    /** Sends {@code message} to the task and destroys it; false once locked. */
    boolean send(ZMsg message);

    /** Sends {@code msg} to the task, destroying it if {@code destroy}; false once locked. */
    boolean send(ZMsg msg, boolean destroy);

    /** Sends one frame to the task; false once locked. */
    boolean send(String word);

    /** Sends one frame to the task, more to come if {@code more}; false once locked. */
    boolean send(String word, boolean more);

    /** Whether the agent is still open: the task has not ended and the agent was not closed. */
    boolean sign();

    /** The pipe to the task, for polling it. */
    ZMQ.Socket pipe();

    /** Locks the agent and closes its pipe; the task is not told (send it a command for that). */
    void close();

    /** Makes the default agent. */
    class Creator {
        private Creator() {
        }

        /** An agent on {@code pipe} locked by {@code lock} (null: never by a message). */
        public static ZAgent create(ZMQ.Socket pipe, String lock) {
            return new SimpleAgent(pipe, lock);
        }
    }

    /**
     * The default agent. Not thread-safe: used by one thread at a time, as its pipe is.
     *
     * <p>Different from JeroMQ: a call interrupted while it waits throws {@link ZMQException} with EINTR and leaves
     * the agent open (JeroMQ's locked it for good); any other error (the context closed) locks it, as in JeroMQ.
     */
    final class SimpleAgent implements ZAgent {
        private final ZMQ.Socket pipe;
        private final byte[] lock;
        private boolean locked;

        /**
         * @param pipe the PAIR socket to the task
         * @param lock the word whose arrival locks the agent, or null
         */
        public SimpleAgent(ZMQ.Socket pipe, String lock) {
            this.pipe = pipe;
            this.lock = lock == null ? null : lock.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean sign() {
            return !locked;
        }

        @Override
        public void close() {
            locked = true;
            pipe.close();
        }

        @Override
        public ZMsg recv() {
            return recv(true);
        }

        @Override
        public ZMsg recv(int timeout) {
            if (locked) {
                return null;
            }
            int before = pipe.getReceiveTimeOut();
            pipe.setReceiveTimeOut(timeout);
            try {
                return recv(true);
            } finally {
                if (!locked) {
                    pipe.setReceiveTimeOut(before);
                }
            }
        }

        @Override
        public ZMsg recv(boolean wait) {
            if (locked) {
                return null;
            }
            ZMsg msg;
            try {
                msg = ZMsg.recvMsg(pipe, wait);
            } catch (ZMQException e) {
                if (e.getErrorCode() == ErrorCodes.EINTR) {
                    throw e;
                }
                locked = true;
                return null;
            }
            if (msg != null && lock != null && msg.size() == 1 && Arrays.equals(lock, msg.peek().getData())) {
                locked = true;
                pipe.close();
                return null;
            }
            return msg;
        }

        @Override
        public boolean send(ZMsg message) {
            return !locked && message.send(pipe);
        }

        @Override
        public boolean send(String word) {
            return !locked && pipe.send(word);
        }

        @Override
        public boolean send(String word, boolean more) {
            return !locked && pipe.send(word, more ? ZMQ.SNDMORE : 0);
        }

        @Override
        public boolean send(ZMsg msg, boolean destroy) {
            return !locked && msg.send(pipe, destroy);
        }

        @Override
        public ZMQ.Socket pipe() {
            return pipe;
        }
    }

    /**
     * Made selectors for JeroMQ's stars; netty-zmtp's pollers need none, so what it makes is never used.
     *
     * @deprecated as in JeroMQ 0.6.0
     */
    @Deprecated
    interface SelectorCreator {
        /** A new selector. */
        Selector create() throws IOException;

        /** Closes {@code selector}. */
        void destroy(Selector selector) throws IOException;
    }
}
