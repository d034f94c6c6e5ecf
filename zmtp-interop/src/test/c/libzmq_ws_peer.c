/* A libzmq peer for LibzmqWsIT: the system's libzmq (Debian's 4.3.4, libzmq3-dev), over whatever endpoint it is
 * given (the test gives ws://). Built by the test with gcc; the same line protocol as ../node/ws_peer.mjs.
 *
 * Usage: libzmq_ws_peer ROLE ENDPOINT COUNT [MECHANISM]
 *        libzmq_ws_peer version       prints 'VERSION <major.minor.patch> ws=<0|1> curve=<0|1>'
 *   ROLE: TYPE-bind or TYPE-connect, TYPE one of push, pull, req, rep, pub, sub, dealer, router;
 *   ENDPOINT: ws://host:port/path (bind takes a * port: libzmq picks one);
 *   COUNT: how many messages (or requests) before the peer exits;
 *   MECHANISM: null (the default), plain-server (a ZAP handler that lets anyone in), plain-client:USER:PASSWORD,
 *     curve-server (a fresh key pair; its public key is printed), curve-client:SERVER_PUBLIC_KEY_Z85.
 *
 * Prints 'BOUND <endpoint>' once bound (followed by ' <public key>' for a CURVE server) or 'READY' once connecting,
 * then one 'MSG <frames joined by |>' per message received (a ROUTER leaves out the routing id), then 'DONE'.
 * What it sends: push, message i is the frames 'm<i>' and 'tail'; req and dealer, request i is 'q<i>' and they print
 * each reply (the dealer without an empty delimiter: our ROUTER echoes what it gets); rep and router answer each
 * request with 're:<first body frame>'; pub sends 'A-<n>' then 'B-<n>' every 20 ms until its lifetime is over; sub
 * subscribes to 'A' and prints COUNT messages. Exits 3 if not done within 20 s, so a dead test leaves nothing running.
 */
#include <zmq.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what)
{
    printf("ERR %s: %s\n", what, zmq_strerror(zmq_errno()));
    fflush(stdout);
    exit(1);
}

static void on_alarm(int sig)
{
    (void) sig;
    static const char msg[] = "libzmq_ws_peer: not done within 20 s\n";
    (void) !write(2, msg, sizeof msg - 1);
    _exit(3);
}

/* Sends the frames, MORE on all but the last. */
static void send_frames(void *s, const char **frames, const size_t *sizes, int n)
{
    for (int i = 0; i < n; i++) {
        if (zmq_send(s, frames[i], sizes[i], i + 1 < n ? ZMQ_SNDMORE : 0) < 0)
            die("zmq_send");
    }
}

static void send_text(void *s, const char *text)
{
    size_t size = strlen(text);
    send_frames(s, &text, &size, 1);
}

/* Receives one message: prints 'MSG a|b|c' (skipping the first `skip` frames), and keeps the frames skipped and the
 * first one printed for the reply. */
static void receive_message(void *s, int skip, zmq_msg_t *id, char *first, size_t first_size)
{
    int index = 0;
    int more;
    first[0] = 0;
    printf("MSG ");
    do {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, s, 0) < 0)
            die("zmq_msg_recv");
        if (index < skip) {
            zmq_msg_copy(id, &part);
        } else {
            if (index > skip)
                putchar('|');
            fwrite(zmq_msg_data(&part), 1, zmq_msg_size(&part), stdout);
            if (index == skip) {
                size_t n = zmq_msg_size(&part) < first_size - 1 ? zmq_msg_size(&part) : first_size - 1;
                memcpy(first, zmq_msg_data(&part), n);
                first[n] = 0;
            }
        }
        more = zmq_msg_more(&part);
        zmq_msg_close(&part);
        index++;
    } while (more);
    putchar('\n');
    fflush(stdout);
}

static void *zap_handler(void *zap)
{
    for (;;) {
        char version[16], request_id[256];
        int more = 1, frame = 0;
        int vlen = 0, rlen = 0;
        while (more) {
            zmq_msg_t part;
            zmq_msg_init(&part);
            if (zmq_msg_recv(&part, zap, 0) < 0) {
                /* ETERM from zmq_ctx_term, which waits for this socket to close. */
                zmq_close(zap);
                return NULL;
            }
            if (frame == 0) {
                vlen = (int) (zmq_msg_size(&part) < sizeof version ? zmq_msg_size(&part) : sizeof version);
                memcpy(version, zmq_msg_data(&part), (size_t) vlen);
            } else if (frame == 1) {
                rlen = (int) (zmq_msg_size(&part) < sizeof request_id ? zmq_msg_size(&part) : sizeof request_id);
                memcpy(request_id, zmq_msg_data(&part), (size_t) rlen);
            }
            more = zmq_msg_more(&part);
            zmq_msg_close(&part);
            frame++;
        }
        zmq_send(zap, version, (size_t) vlen, ZMQ_SNDMORE);
        zmq_send(zap, request_id, (size_t) rlen, ZMQ_SNDMORE);
        zmq_send(zap, "200", 3, ZMQ_SNDMORE);
        zmq_send(zap, "OK", 2, ZMQ_SNDMORE);
        /* No user id: with one, libzmq's engine pushes it to the session as a credential message first, which
         * a REQ's session refuses (req_session_t::push_msg, EFAULT in 4.3.4 and 4.3.5), dropping the connection
         * on the first reply, over tcp as over ws. */
        zmq_send(zap, "", 0, ZMQ_SNDMORE);
        zmq_send(zap, "", 0, 0);
    }
}

static int type_of(const char *name)
{
    static const struct { const char *name; int type; } types[] = {
        {"push", ZMQ_PUSH}, {"pull", ZMQ_PULL}, {"req", ZMQ_REQ}, {"rep", ZMQ_REP}, {"pub", ZMQ_PUB},
        {"sub", ZMQ_SUB}, {"dealer", ZMQ_DEALER}, {"router", ZMQ_ROUTER}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(types[i].name, name) == 0)
            return types[i].type;
    }
    return -1;
}

int main(int argc, char *argv[])
{
    if (argc == 2 && strcmp(argv[1], "version") == 0) {
        int major, minor, patch;
        zmq_version(&major, &minor, &patch);
        /* zmq_has takes libzmq's capability names: "WS" in capitals. */
        printf("VERSION %d.%d.%d ws=%d curve=%d\n", major, minor, patch, zmq_has("WS"), zmq_has("curve"));
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: libzmq_ws_peer ROLE ENDPOINT COUNT [MECHANISM]\n");
        return 2;
    }
    signal(SIGALRM, on_alarm);
    alarm(20);
    char role[32];
    snprintf(role, sizeof role, "%s", argv[1]);
    char *dash = strchr(role, '-');
    if (!dash) {
        fprintf(stderr, "libzmq_ws_peer: unknown role %s\n", argv[1]);
        return 2;
    }
    *dash = 0;
    const char *how = dash + 1;
    int type = type_of(role);
    int binds = strcmp(how, "bind") == 0;
    if (type < 0 || (!binds && strcmp(how, "connect") != 0)) {
        fprintf(stderr, "libzmq_ws_peer: unknown role %s\n", argv[1]);
        return 2;
    }
    const char *endpoint = argv[2];
    int count = atoi(argv[3]);
    const char *mechanism = argc > 4 ? argv[4] : "null";

    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, type);
    int linger = 2000;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    char announce[64] = "";
    pthread_t zap_thread;
    if (strcmp(mechanism, "plain-server") == 0) {
        /* libzmq's PLAIN server fails every handshake without a ZAP handler. */
        void *zap = zmq_socket(ctx, ZMQ_REP);
        if (zmq_bind(zap, "inproc://zeromq.zap.01") != 0)
            die("zmq_bind zap");
        pthread_create(&zap_thread, NULL, zap_handler, zap);
        pthread_detach(zap_thread);
        int one = 1;
        zmq_setsockopt(s, ZMQ_PLAIN_SERVER, &one, sizeof one);
    } else if (strncmp(mechanism, "plain-client:", 13) == 0) {
        char user[128];
        snprintf(user, sizeof user, "%s", mechanism + 13);
        char *colon = strchr(user, ':');
        if (!colon) {
            fprintf(stderr, "libzmq_ws_peer: plain-client:USER:PASSWORD\n");
            return 2;
        }
        *colon = 0;
        zmq_setsockopt(s, ZMQ_PLAIN_USERNAME, user, strlen(user));
        zmq_setsockopt(s, ZMQ_PLAIN_PASSWORD, colon + 1, strlen(colon + 1));
    } else if (strcmp(mechanism, "curve-server") == 0) {
        char public_key[41], secret_key[41];
        if (zmq_curve_keypair(public_key, secret_key) != 0)
            die("zmq_curve_keypair");
        int one = 1;
        zmq_setsockopt(s, ZMQ_CURVE_SERVER, &one, sizeof one);
        zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, secret_key, 40);
        snprintf(announce, sizeof announce, " %s", public_key);
    } else if (strncmp(mechanism, "curve-client:", 13) == 0) {
        char public_key[41], secret_key[41];
        if (zmq_curve_keypair(public_key, secret_key) != 0)
            die("zmq_curve_keypair");
        if (zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, mechanism + 13, 40) != 0
            || zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, public_key, 40) != 0
            || zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, secret_key, 40) != 0)
            die("zmq_setsockopt CURVE client");
    } else if (strcmp(mechanism, "null") != 0) {
        fprintf(stderr, "libzmq_ws_peer: unknown mechanism %s\n", mechanism);
        return 2;
    }
    if (type == ZMQ_SUB)
        zmq_setsockopt(s, ZMQ_SUBSCRIBE, "A", 1);

    if (binds) {
        if (zmq_bind(s, endpoint) != 0)
            die("zmq_bind");
        char bound[256];
        size_t size = sizeof bound;
        zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, bound, &size);
        printf("BOUND %s%s\n", bound, announce);
    } else {
        if (zmq_connect(s, endpoint) != 0)
            die("zmq_connect");
        printf("READY\n");
    }
    fflush(stdout);

    zmq_msg_t id;
    zmq_msg_init(&id);
    char first[256];
    char text[300];
    if (type == ZMQ_PUSH) {
        for (int i = 0; i < count; i++) {
            snprintf(text, sizeof text, "m%d", i);
            const char *frames[] = {text, "tail"};
            size_t sizes[] = {strlen(text), 4};
            send_frames(s, frames, sizes, 2);
        }
    } else if (type == ZMQ_PUB) {
        for (int n = 0;; n++) {
            snprintf(text, sizeof text, "A-%d", n);
            send_text(s, text);
            snprintf(text, sizeof text, "B-%d", n);
            send_text(s, text);
            usleep(20000);
        }
    } else if (type == ZMQ_REQ || type == ZMQ_DEALER) {
        for (int i = 0; i < count; i++) {
            snprintf(text, sizeof text, "q%d", i);
            send_text(s, text);
            receive_message(s, 0, &id, first, sizeof first);
        }
    } else if (type == ZMQ_REP || type == ZMQ_ROUTER) {
        int router = type == ZMQ_ROUTER;
        for (int i = 0; i < count; i++) {
            receive_message(s, router, &id, first, sizeof first);
            snprintf(text, sizeof text, "re:%s", first);
            if (router && zmq_msg_send(&id, s, ZMQ_SNDMORE) < 0)
                die("zmq_msg_send id");
            send_text(s, text);
        }
    } else {
        for (int i = 0; i < count; i++)
            receive_message(s, 0, &id, first, sizeof first);
    }
    zmq_msg_close(&id);
    printf("DONE\n");
    fflush(stdout);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return 0;
}
