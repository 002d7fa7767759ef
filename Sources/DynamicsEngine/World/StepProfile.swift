/// Where a step's time goes, phase by phase (Box2D's `b2Profile`), for `bench --profile`.
///
/// Measured only while `World.isProfiling` is on (two clock reads a phase, about 50 ns); the
/// durations are those of the last step. `solve` is the sub-steps (integrate, warm start, solve,
/// integrate positions, relax); `prepare` includes ordering, colouring and the impact pass.
package struct StepProfile: Sendable, Equatable {
    /// The broad phase: new pairs from the grid.
    package var pairs: Duration = .zero
    /// The narrow phase: manifolds, begin and end touch.
    package var collide: Duration = .zero
    /// Body records, joint and contact preparation, colouring, the impact pass.
    package var prepare: Duration = .zero
    /// The sub-steps.
    package var solve: Duration = .zero
    /// The restitution pass.
    package var restitution: Duration = .zero
    /// Storing impulses for the next step's warm start.
    package var store: Duration = .zero
    /// Writing bodies back: transforms, boxes, sleep timers.
    package var finalize: Duration = .zero
    /// Continuous collision of fast bodies.
    package var continuous: Duration = .zero
    /// Islands and sleep.
    package var sleep: Duration = .zero

    package init() {}

    /// The phases' names and durations, in step order.
    package var phases: [(name: String, duration: Duration)] {
        [("pairs", pairs), ("collide", collide), ("prepare", prepare), ("solve", solve),
         ("restitution", restitution), ("store", store), ("finalize", finalize),
         ("continuous", continuous), ("sleep", sleep)]
    }

    /// The sum of the phases.
    package var total: Duration { phases.reduce(.zero) { $0 + $1.duration } }
}

/// A clock that reads the time only when profiling: a phase boundary costs a branch otherwise.
struct PhaseTimer {
    let isOn: Bool
    private var last: ContinuousClock.Instant?

    init(_ isOn: Bool) {
        self.isOn = isOn
        last = isOn ? ContinuousClock.now : nil
    }

    /// The time since the last lap (or the start), and a new lap; zero when off.
    mutating func lap() -> Duration {
        guard isOn, let previous = last else { return .zero }
        let now = ContinuousClock.now
        last = now
        return now - previous
    }
}
