/* local_thr <bind-to> <message-size> <message-count> [--pubsub]: PULL (or SUB) binds and receives. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    int pubsub = parse_pubsub(argc, argv,
                              "usage: local_thr <bind-to> <message-size> <message-count> [--pubsub]");
    const char *bind_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long message_count = atoll(argv[3]);
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, pubsub ? ZMQ_SUB : ZMQ_PULL);
    if (!s)
        die("zmq_socket");
    apply_security(s);
    if (pubsub && zmq_setsockopt(s, ZMQ_SUBSCRIBE, "", 0) != 0)
        die("zmq_setsockopt");
    if (zmq_bind(s, bind_to) != 0)
        die("zmq_bind");
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    struct progress progress;
    if (zmq_msg_recv(&msg, s, 0) < 0)
        die("zmq_msg_recv");
    if (zmq_msg_size(&msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        return 1;
    }
    progress_init(&progress);
    unsigned long long start = now_ns();
    for (long long i = 1; i < message_count; i++) {
        if (zmq_msg_recv(&msg, s, 0) < 0)
            die("zmq_msg_recv");
        if (zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        progress_tick(&progress, i + 1);
    }
    unsigned long elapsed = (unsigned long) ((now_ns() - start) / 1000);
    if (elapsed == 0)
        elapsed = 1;
    zmq_msg_close(&msg);
    unsigned long throughput = (unsigned long) ((double) message_count / (double) elapsed * 1000000);
    double megabits = (double) (throughput * message_size * 8) / 1000000;
    printf("message size: %d [B]\n", (int) message_size);
    printf("message count: %d\n", (int) message_count);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", (double) megabits);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
