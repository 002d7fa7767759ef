import Foundation

/// Debugging switches, read from the environment once, here and not in the engine: the engine
/// only does what its `WorldDef` says.
package enum DebugSwitches {
    /// `DYNAMICS_VALIDATE=1`: every animator's world, and every scene the scene catalogue builds,
    /// runs the engine's validation walk after each step (slow: for test runs). An animator reports
    /// the first broken invariant as a diagnostic and on standard error, with the prefix
    /// ``validationFailurePrefix``, so that the harness (CI's second test run) can stop on it.
    package static let validatesWorlds = ProcessInfo.processInfo.environment["DYNAMICS_VALIDATE"] == "1"

    /// How a validation failure starts on standard error: "dynamics: validation failed".
    package static let validationFailurePrefix = "dynamics: validation failed"
}
