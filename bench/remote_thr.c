/* remote_thr <connect-to> <message-size> <message-count> [<warmup-count>] [--pubsub]: PUSH (or PUB) connects and
 * sends <warmup-count> + <message-count> messages (local_thr takes the first <warmup-count> untimed).
 * With --pubsub it is an XPUB with XPUB_NODROP, which looks like a PUB to the subscriber: it waits for the
 * subscription and blocks at the HWM instead of dropping, as `zmtp remote_thr --pubsub` does. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    long long warmup_count;
    int pubsub = parse_thr_options(argc, argv,
                                   "usage: remote_thr <connect-to> <message-size> <message-count> [<warmup-count>] [--pubsub]",
                                   &warmup_count);
    const char *connect_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long message_count = atoll(argv[3]);
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, pubsub ? ZMQ_XPUB : ZMQ_PUSH);
    if (!s)
        die("zmq_socket");
    apply_security(s);
    if (pubsub) {
        int one = 1;
        if (zmq_setsockopt(s, ZMQ_XPUB_NODROP, &one, sizeof one) != 0)
            die("zmq_setsockopt");
    }
    if (zmq_connect(s, connect_to) != 0)
        die("zmq_connect");
    if (pubsub) {
        char sub[256];
        if (zmq_recv(s, sub, sizeof sub, 0) < 0)
            die("zmq_recv (subscription)");
    }
    struct progress progress;
    progress_init(&progress);
    zmq_msg_t msg;
    for (long long i = 0; i < warmup_count + message_count; i++) {
        if (zmq_msg_init_size(&msg, message_size) != 0)
            die("zmq_msg_init_size");
        while (zmq_msg_send(&msg, s, 0) < 0) {
            if (zmq_errno() != EAGAIN)
                die("zmq_msg_send");
        }
        progress_tick(&progress, i + 1);
    }
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
