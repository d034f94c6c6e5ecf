package io.zmtp.socket.internal;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionResultKt;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.util.ExceptionResult;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * For the model-checking tests whose operations are not a sequential object's: a reader turned away by a claim
 * returns "nothing" with its wake-up armed, which no sequential history of the same operations does. Any results
 * pass but an exception; what must hold (no lost wake-up, no lost or duplicated message) is checked by the test's
 * {@code @Validate} function, after each interleaving. Lincheck builds it by reflection, with the sequential
 * specification it would have compared against.
 */
public final class AnyResultVerifier implements Verifier {
    public AnyResultVerifier(Class<?> sequentialSpecification) {
    }

    @Override
    public boolean verifyResults(ExecutionScenario scenario, ExecutionResult results) {
        for (LincheckResult r : ExecutionResultKt.getAllResults(results)) {
            if (r instanceof ExceptionResult) {
                return false;
            }
        }
        return true;
    }
}
