@testable import DynamicsEngine
import Foundation
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

    /// smash's start on the 2-vCPU guest (2026-11-29): the world's second step allocates and takes
    /// 1.7 ms, the rest 0.25 ms with the workers and 0.35 without. Averaged with that step, the
    /// workers looked slower and the pool ran the next 32 steps alone.
    @Test func aSlowSecondStepDoesNotSendTheWorkersAway() {
        let kinds = run(600) { step, parallel, _ in
            step == 1 ? 1.7e-3 : (parallel ? 0.25e-3 : 0.35e-3)
        }
        let solo = kinds.filter { !$0 }.count
        #expect(solo <= 6, "\(solo) of 600 steps ran without the workers")
    }

    /// A scene whose cost rises thirtyfold within 50 steps and falls back by half (smash's wall
    /// struck: 0.3 ms a step, then 15 ms by step 120, 8 ms by step 300), a step without the
    /// workers 1.45 times one with them throughout. Weighed against a time of the other kind as old
    /// as its last probe, the rising steps with the workers looked slower than the last step
    /// without them and the pool ran one thread in a run of steps at every probe.
    @Test func aGrowingSceneKeepsTheWorkers() {
        func base(_ step: Int) -> Double {
            if step < 70 { return 0.3e-3 }
            if step < 120 { return 0.3e-3 * pow(50, Double(step - 70) / 50) }
            return 15e-3 - 7e-3 * Double(min(step, 300) - 120) / 180
        }
        let kinds = run(600) { step, parallel, _ in (parallel ? 1 : 1.45) * base(step) }
        let solo = kinds.filter { !$0 }.count
        let heavySolo = kinds[70..<300].filter { !$0 }.count
        #expect(solo <= 12, "\(solo) of 600 steps ran without the workers")
        #expect(heavySolo <= 6, "\(heavySolo) of the 230 steps from the strike ran without the workers")
    }

    /// After a run without the workers their cores take a few steps to wake (ui_fields on the 2-vCPU
    /// guest, 2026-11-29: 2.3, 2.3 and 1.3 ms, then 0.5, against 0.65 without them). A load from
    /// step 100 to 400 sends the pool to one thread; once it ends, a probe of the workers waits
    /// out their waking and brings them back.
    @Test func theWorkersComeBackThoughTheyWakeSlowly() {
        var sinceSolo = 0
        let kinds = run(1200) { step, parallel, previous in
            if !parallel { sinceSolo = 0; return 0.65e-3 }
            if previous == false { sinceSolo = 1 } else if sinceSolo > 0 { sinceSolo += 1 }
            let waking = sinceSolo > 0 && sinceSolo <= 3 ? [2.3e-3, 2.3e-3, 1.3e-3][sinceSolo - 1] : 0
            let loaded = (100..<400).contains(step)
            return max(waking, loaded ? 1.5e-3 : 0.5e-3)
        }
        let turned = kinds[100...].firstIndex(of: false).map { $0 - 100 }
        // four steps in a row with the workers: past their probe
        let back = (400..<(kinds.count - 3)).first { kinds[$0...($0 + 3)].allSatisfy { $0 } }
        let wait = back.map { $0 - 400 }
        let after = kinds[(400 + StepKindChooser.longestProbeInterval + 8)...].filter { !$0 }.count
        #expect((turned ?? .max) <= 8, "the caller ran alone \(turned.map(String.init) ?? "never") steps into the load")
        #expect((wait ?? .max) <= StepKindChooser.longestProbeInterval + 8,
                "the workers came back \(wait.map(String.init) ?? "never") steps after the load")
        #expect(after <= 6, "\(after) steps without the workers after the load")
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
