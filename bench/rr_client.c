/* rr_client <connect-to> <message-size> <request-count> <in-flight> [<warmup-count>]: DEALER connects, sends one
 * untimed request and waits for its reply, then warmup-count - 1 more untimed requests, then request-count timed
 * ones, keeping in-flight outstanding; prints the replies per second, as `zmtp rr_client`. Its peer (rr_server)
 * echoes max(warmup-count, 1) + request-count requests, exactly what this side sends.
 * The window is counted in replies: the run ends when the last reply has arrived, not when the last request has
 * been queued. */
#include "perf_common.h"

/* Once traffic has started, a peer quiet for this long on loopback is gone: fail instead of hanging. */
#define STALL_MS 30000

static void recv_reply(void *s, zmq_msg_t *msg, size_t message_size, long long replies, long long count,
                       long long outstanding)
{
    if (zmq_msg_recv(msg, s, 0) < 0) {
        if (zmq_errno() == EAGAIN) {
            fprintf(stderr, "rr_client: no reply for %d s: %lld of %lld replies received, %lld outstanding\n",
                    STALL_MS / 1000, replies, count, outstanding);
            exit(1);
        }
        die("zmq_msg_recv");
    }
    if (zmq_msg_size(msg) != message_size || zmq_msg_more(msg)) {
        fprintf(stderr, "rr_client: message of incorrect size received: %d B (expected: %d B in 1 frame)\n",
                (int) zmq_msg_size(msg), (int) message_size);
        exit(1);
    }
}

static void send_request(void *s, const char *payload, size_t message_size)
{
    if (zmq_send(s, payload, message_size, 0) < 0)
        die("zmq_send");
}

/* Sends count requests, at most in_flight unanswered at a time; returns once all count replies have arrived. */
static void exchange(void *s, zmq_msg_t *msg, const char *payload, size_t message_size, long long count,
                     int in_flight, struct progress *progress, long long *total)
{
    long long sent = 0, replies = 0;
    while (replies < count) {
        while (sent < count && sent - replies < in_flight) {
            send_request(s, payload, message_size);
            sent++;
        }
        recv_reply(s, msg, message_size, replies, count, sent - replies);
        replies++;
        progress_tick(progress, ++*total);
    }
}

int main(int argc, char *argv[])
{
    argc = strip_security(argc, argv);
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: rr_client <connect-to> <message-size> <request-count> <in-flight> [<warmup-count>]\n");
        return 1;
    }
    const char *connect_to = argv[1];
    size_t message_size = (size_t) atol(argv[2]);
    long long request_count = atoll(argv[3]);
    int in_flight = atoi(argv[4]);
    long long warmup_count = argc == 6 ? atoll(argv[5]) : 0;
    if (request_count < 1 || in_flight < 1 || warmup_count < 0) {
        fprintf(stderr, "rr_client: request-count >= 1, in-flight >= 1, warmup-count >= 0 expected\n");
        return 1;
    }
    char *payload = calloc(1, message_size ? message_size : 1);
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    if (!s || !payload)
        die("zmq_socket");
    apply_security(s);
    /* The window, not the HWM, bounds what is outstanding. LINGER 0: every request has been answered when we close,
     * so nothing is pending, and close can't wait on a server that has gone away. */
    int zero = 0;
    if (zmq_setsockopt(s, ZMQ_SNDHWM, &zero, sizeof zero) != 0 || zmq_setsockopt(s, ZMQ_RCVHWM, &zero, sizeof zero) != 0
        || zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero) != 0)
        die("zmq_setsockopt");
    if (zmq_connect(s, connect_to) != 0)
        die("zmq_connect");
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    struct progress progress;
    progress_init(&progress);
    long long total = 0;
    /* The first reply may take as long as the server takes to start, as with libzmq's tools. */
    send_request(s, payload, message_size);
    recv_reply(s, &msg, message_size, 0, 1, 1);
    progress_tick(&progress, ++total);
    int stall = STALL_MS;
    if (zmq_setsockopt(s, ZMQ_RCVTIMEO, &stall, sizeof stall) != 0)
        die("zmq_setsockopt");
    exchange(s, &msg, payload, message_size, (warmup_count > 1 ? warmup_count : 1) - 1, in_flight, &progress, &total);
    unsigned long long start = now_ns();
    exchange(s, &msg, payload, message_size, request_count, in_flight, &progress, &total);
    unsigned long elapsed = (unsigned long) ((now_ns() - start) / 1000);
    if (elapsed == 0)
        elapsed = 1;
    zmq_msg_close(&msg);
    unsigned long throughput = (unsigned long) ((double) request_count / (double) elapsed * 1000000);
    printf("message size: %d [B]\n", (int) message_size);
    printf("request count: %lld\n", request_count);
    printf("in flight: %d\n", in_flight);
    printf("mean throughput: %lu [req/s]\n", throughput);
    zmq_close(s);
    zmq_ctx_term(ctx);
    free(payload);
    return 0;
}
