/* local_thr <bind-to> <message-size> <message-count> [<warmup-count>] [--pubsub]: PULL (or SUB) binds and receives;
 * the first <warmup-count> messages untimed (remote_thr sends them on top of the count), then the counted ones. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    long long warmup_count;
    int pubsub = parse_thr_options(argc, argv,
                                   "usage: local_thr <bind-to> <message-size> <message-count> [<warmup-count>] [--pubsub]",
                                   &warmup_count);
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
    unsigned long long start = 0;
    for (long long i = 0; i < warmup_count + message_count; i++) {
        if (zmq_msg_recv(&msg, s, 0) < 0)
            die("zmq_msg_recv");
        if (zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        if (i == 0)
            progress_init(&progress);
        if (i == warmup_count)
            start = now_ns(); /* as libzmq's: the clock starts at the first counted message */
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
