/* local_lat <bind-to> <message-size> <roundtrip-count> [<warmup-count>]: REP binds and echoes warmup + roundtrip
 * messages (the optional warm-up is ours, as in `zmtp local_lat`; without it this is libzmq's tool). */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: local_lat <bind-to> <message-size> <roundtrip-count> [<warmup-count>]\n");
        return 1;
    }
    const char *bind_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long roundtrip_count = atoll(argv[3]) + (argc == 5 ? atoll(argv[4]) : 0);
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_REP);
    if (!s)
        die("zmq_socket");
    apply_security(s);
    if (zmq_bind(s, bind_to) != 0)
        die("zmq_bind");
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    struct progress progress;
    progress_init(&progress);
    for (long long i = 0; i != roundtrip_count; i++) {
        if (zmq_msg_recv(&msg, s, 0) < 0)
            die("zmq_msg_recv");
        if (zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        if (zmq_msg_send(&msg, s, 0) < 0)
            die("zmq_msg_send");
        progress_tick(&progress, i + 1);
    }
    zmq_msg_close(&msg);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
