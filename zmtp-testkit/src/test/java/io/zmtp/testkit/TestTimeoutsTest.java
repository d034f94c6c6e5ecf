package io.zmtp.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestTimeoutsTest {

    @Test
    void shouldReadOneWhenTheFactorIsUnset() {
        assertThat(TestTimeouts.parseScale(null)).isEqualTo(1);
        assertThat(TestTimeouts.parseScale(" ")).isEqualTo(1);
    }

    @Test
    void shouldReadWholeAndFractionalFactors() {
        assertThat(TestTimeouts.parseScale("3")).isEqualTo(3);
        assertThat(TestTimeouts.parseScale(" 1.5 ")).isEqualTo(1.5);
    }

    @Test
    void shouldRefuseAFactorThatIsNotAPositiveNumber() {
        for (String bad : new String[] {"0", "-2", "three", "NaN", "Infinity"}) {
            assertThatThrownBy(() -> TestTimeouts.parseScale(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("zmtp.test.timeoutScale: " + bad);
        }
    }

    @Test
    void shouldMultiplyADeadlineByTheFactor() {
        assertThat(TestTimeouts.scaled(Duration.ofSeconds(5), 3)).isEqualTo(Duration.ofSeconds(15));
        assertThat(TestTimeouts.scaled(Duration.ofMillis(100), 1.5)).isEqualTo(Duration.ofMillis(150));
        assertThat(TestTimeouts.scaled(Duration.ofSeconds(5), 1)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void shouldScaleByThePropertyOfThisRun() {
        double scale = TestTimeouts.parseScale(System.getProperty(TestTimeouts.SCALE_PROPERTY));
        assertThat(TestTimeouts.scale()).isEqualTo(scale);
        assertThat(TestTimeouts.scaledMillis(1000)).isEqualTo(Math.round(1000 * scale));
        assertThat(TestTimeouts.scaledSeconds(10)).isEqualTo(Math.round(10 * scale));
    }
}
