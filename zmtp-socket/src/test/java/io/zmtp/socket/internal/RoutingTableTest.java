package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RoutingTableTest {
    private static final PipeListener NO_OP = new CountingPipeListener();

    private static Pipe pipe(byte[] id) {
        Pipe p = new Pipe(NO_OP, true, "test://", 10, 10);
        p.routingId(id);
        return p;
    }

    /** {@code id}'s bytes in the middle of a larger direct buffer, as an id frame sliced from a read buffer is. */
    private static ByteBuf frameOf(byte[] id) {
        ByteBuf whole = Unpooled.directBuffer(id.length + 6);
        whole.writeBytes(new byte[] {7, 7, 7}).writeBytes(id).writeBytes(new byte[] {9, 9, 9});
        return whole.slice(3, id.length);
    }

    @Test
    void shouldFindAGeneratedIdByAFrameOfAnyKind() {
        RoutingTable table = new RoutingTable();
        byte[] id = table.newId();
        Pipe p = pipe(id);
        table.put(id, p);

        ByteBuf direct = frameOf(id);
        assertThat(table.get(direct)).isSameAs(p);
        assertThat(table.get(Unpooled.wrappedBuffer(id.clone()))).isSameAs(p);
        assertThat(table.get(id.clone())).isSameAs(p);
        assertThat(direct.readerIndex()).isZero();
        direct.release();
    }

    @Test
    void shouldTellGeneratedIdsApartByEveryByte() {
        RoutingTable table = new RoutingTable();
        byte[] a = {0, 1, 2, 3, 4};
        byte[] b = {0, 1, 2, 3, 5};
        byte[] c = {0, (byte) 0x81, 2, 3, 4};
        Pipe pa = pipe(a);
        Pipe pc = pipe(c);
        table.put(a, pa);
        table.put(c, pc);

        assertThat(table.get(Unpooled.wrappedBuffer(a))).isSameAs(pa);
        assertThat(table.get(Unpooled.wrappedBuffer(b))).isNull();
        assertThat(table.get(Unpooled.wrappedBuffer(c))).isSameAs(pc);
        // Same four bytes without the leading zero, or with one more byte: other ids.
        assertThat(table.get(Unpooled.wrappedBuffer(new byte[] {1, 1, 2, 3, 4}))).isNull();
        assertThat(table.get(Unpooled.wrappedBuffer(new byte[] {0, 1, 2, 3, 4, 0}))).isNull();
        assertThat(table.get(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4}))).isNull();
    }

    @Test
    void shouldFindAnnouncedIdsOfEveryShape() {
        RoutingTable table = new RoutingTable();
        byte[] name = "worker-1".getBytes(StandardCharsets.US_ASCII);
        byte[] fiveBytes = {'A', 'B', 'C', 'D', 'E'};
        byte[] empty = {};
        Pipe pn = pipe(name);
        Pipe pf = pipe(fiveBytes);
        Pipe pe = pipe(empty);
        table.put(name, pn);
        table.put(fiveBytes, pf);
        table.put(empty, pe);

        ByteBuf nameFrame = frameOf(name);
        ByteBuf fiveBytesFrame = frameOf(fiveBytes);
        assertThat(table.get(nameFrame)).isSameAs(pn);
        assertThat(table.get(fiveBytesFrame)).isSameAs(pf);
        nameFrame.release();
        fiveBytesFrame.release();
        assertThat(table.get(Unpooled.EMPTY_BUFFER)).isSameAs(pe);
        assertThat(table.get("worker-2".getBytes(StandardCharsets.US_ASCII))).isNull();
    }

    @Test
    void shouldRemoveAnIdOnlyForThePipeItIsMappedTo() {
        RoutingTable table = new RoutingTable();
        byte[] generated = table.newId();
        byte[] named = "n".getBytes(StandardCharsets.US_ASCII);
        Pipe first = pipe(generated);
        Pipe second = pipe(generated.clone());
        Pipe named1 = pipe(named);
        Pipe named2 = pipe(named.clone());
        table.put(generated, first);
        table.put(named, named1);

        // A pipe that lost its id to another (ROUTER_HANDOVER) leaves the mapping alone when it goes.
        table.put(generated, second);
        table.remove(first);
        assertThat(table.get(generated)).isSameAs(second);
        table.put(named, named2);
        table.remove(named1);
        assertThat(table.get(named)).isSameAs(named2);

        table.remove(second);
        table.remove(named2);
        assertThat(table.get(generated)).isNull();
        assertThat(table.get(named)).isNull();
    }

    @Test
    void shouldHandOutDistinctGeneratedIds() {
        RoutingTable table = new RoutingTable();
        byte[] a = table.newId();
        byte[] b = table.newId();
        assertThat(a).hasSize(5).startsWith(0);
        assertThat(b).isNotEqualTo(a);
    }
}
