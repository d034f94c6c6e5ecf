package io.zmtp.codec.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CurveKeyPairTest {

    @Test
    void shouldDeriveEachTestPublicKeyFromItsSecretKey() {
        assertThat(CurveKeyPair.fromSecretKey(CurveTestKeys.CLIENT_SECRET).publicKey())
                .isEqualTo(CurveTestKeys.CLIENT_PUBLIC);
        assertThat(CurveKeyPair.fromSecretKeyZ85(CurveTestKeys.SERVER_SECRET_Z85).publicKeyZ85())
                .isEqualTo(CurveTestKeys.SERVER_PUBLIC_Z85);
    }

    @Test
    void shouldReadAPairFromBothZ85Keys() {
        CurveKeyPair pair = CurveKeyPair.fromZ85(CurveTestKeys.SERVER_PUBLIC_Z85, CurveTestKeys.SERVER_SECRET_Z85);
        assertThat(pair.secretKey()).isEqualTo(CurveTestKeys.SERVER_SECRET);
        assertThat(pair.secretKeyZ85()).isEqualTo(CurveTestKeys.SERVER_SECRET_Z85);
    }

    @Test
    void shouldRefuseAPublicKeyThatIsNotTheSecretKeys() {
        assertThatThrownBy(() -> CurveKeyPair.fromZ85(CurveTestKeys.CLIENT_PUBLIC_Z85,
                CurveTestKeys.SERVER_SECRET_Z85))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not the secret key's");
    }

    @Test
    void shouldGenerateDistinctPairsWhosePublicKeyMatchesTheSecret() {
        CurveKeyPair a = CurveKeyPair.generate();
        CurveKeyPair b = CurveKeyPair.generate();
        assertThat(a).isNotEqualTo(b);
        assertThat(CurveKeyPair.fromSecretKey(a.secretKey())).isEqualTo(a);
        assertThat(a.publicKeyZ85()).hasSize(40);
    }

    @Test
    void shouldRejectKeysOfTheWrongLength() {
        assertThatThrownBy(() -> CurveKeyPair.fromSecretKey(new byte[31]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("31 (expected: 32)");
        assertThatThrownBy(() -> CurveKeyPair.decodeKey("HelloWorld", "server key"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("server key: 10 characters (expected: 40 Z85 characters)");
    }

    @Test
    void shouldNotShowTheSecretKeyInToString() {
        CurveKeyPair pair = CurveKeyPair.fromSecretKey(CurveTestKeys.SERVER_SECRET);
        assertThat(pair.toString()).contains(CurveTestKeys.SERVER_PUBLIC_Z85)
                .doesNotContain(CurveTestKeys.SERVER_SECRET_Z85);
    }
}
