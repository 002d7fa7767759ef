@testable import DynamicsEngine
import Testing

/// The pool's choice between a step with the workers and one without, fed the times of a model
/// machine (no clock, no threads: the choice is a function of the times it is given).
@Suite struct StepKindChooserTests {
    /// Runs `steps` steps; `cost(step, parallel, previousWasParallel)` is the time of a step of that
    /// kind. Returns the kinds chosen.
    private func run(_ steps: Int, _ cost: (Int, Bool, Bool?) -> Double) -> [Bool] {
        var chooser = StepKindChooser()
        var kinds: [Bool] = []
        for step in 0..<steps {
            let parallel = chooser.nextStepIsParallel()
            chooser.record(seconds: cost(step, parallel, kinds.last))
            kinds.append(parallel)
        }
        return kinds
    }

    /// The tumbler on the 2-vCPU guest: 1.2 ms a step with the workers, 1.8 ms without; the first
    /// step with them after steps without costs 1.5 ms more (idle cores woken, caches moved) and the
    /// first without after steps with them 0.3 ms more. Timed as it came, that first step made the
    /// pool give up the workers for good; now only the probes run without them (one step each, one
    /// in 256 steps once settled).
    @Test func aSlowFirstStepAfterTheOtherKindDoesNotDecide() {
        let kinds = run(3000) { _, parallel, previous in
            let switched = previous != nil && previous != parallel
            return parallel ? 1.2e-3 + (switched ? 1.5e-3 : 0) : 1.8e-3 + (switched ? 0.3e-3 : 0)
        }
        let solo = kinds.filter { !$0 }.count
        let lateSolo = kinds[1000...].filter { !$0 }.count
        #expect(solo <= 20, "\(solo) of 3000 steps ran without the workers")
        #expect(lateSolo <= 2000 / StepKindChooser.longestProbeInterval + 1,
                "\(lateSolo) of the last 2000 steps ran without the workers")
    }

    /// A worker pre-empted now and then: one step with the workers in 30 takes `factor` times the
    /// others (1.5 ms, against 1.8 without them; the tumbler's early steps on the 2-vCPU guest,
    /// whose slow steps took 1.6–2.4 times the others). The workers keep their place: only the
    /// probes run without them.
    @Test(arguments: [1.85, 5.0])
    func rareSlowStepsDoNotSendTheWorkersAway(factor: Double) {
        let kinds = run(3000) { step, parallel, _ in
            parallel ? (step % 30 == 15 ? factor * 1.5e-3 : 1.5e-3) : 1.8e-3
        }
        let solo = kinds.filter { !$0 }.count
        #expect(solo <= 20, "\(solo) of 3000 steps ran without the workers")
    }

    /// Another process loads a core from step 1000 on (a step with the workers then takes 3 ms, one
    /// without 1.8 ms): the caller soon runs alone, and stays so but for its probes; the load ends
    /// at step 2000 and the workers come back within a probe interval.
    @Test func aLastingLoadTurnsTheChoiceBothWays() {
        let kinds = run(3000) { step, parallel, _ in
            let loaded = (1000..<2000).contains(step)
            return parallel ? (loaded ? 3e-3 : 1.2e-3) : 1.8e-3
        }
        let before = kinds[200..<1000].filter { !$0 }.count
        let turned = kinds[1000...].firstIndex(of: false).map { $0 - 1000 }
        let loadedParallel = kinds[1010..<2000].filter { $0 }.count
        let back = kinds[2000...].firstIndex(of: true).map { $0 - 2000 }
        let after = kinds[(2000 + StepKindChooser.longestProbeInterval + 4)...].filter { !$0 }.count
        #expect(before <= 20, "\(before) steps without the workers before the load")
        #expect((turned ?? .max) <= 8, "the caller ran alone \(turned.map(String.init) ?? "never") steps into the load")
        #expect(loadedParallel <= 2 * 990 / StepKindChooser.probeInterval + 2,
                "\(loadedParallel) of 990 loaded steps ran with the workers")
        #expect((back ?? .max) <= StepKindChooser.longestProbeInterval,
                "the workers came back \(back.map(String.init) ?? "never") steps after the load")
        #expect(after <= 20, "\(after) steps without the workers after the load")
    }

    /// A scene whose steps are faster without the workers (a few bodies): the caller runs alone but
    /// for the probes, and a time that is not a number is ignored.
    @Test func aSmallSceneRunsOnTheCaller() {
        var chooser = StepKindChooser()
        var parallelSteps = 0
        for step in 0..<2000 {
            let parallel = chooser.nextStepIsParallel()
            if parallel { parallelSteps += 1 }
            chooser.record(seconds: step == 500 ? .nan : (parallel ? 90e-6 : 50e-6))
        }
        #expect(parallelSteps <= 40, "\(parallelSteps) of 2000 steps ran with the workers")
    }
}
