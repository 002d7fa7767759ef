@testable import DynamicsEngine
import Foundation
import Synchronization
import Testing

/// `WorkerPool.runProgram`: every item of every stage runs once, and only after every item of the
/// stage before it has run; a stage of one piece runs whole; on every kind of step the pool
/// chooses, and with a slow piece now and then (a pre-empted thread).
@Suite struct WorkerPoolProgramTests {
    @Test(arguments: [2, 3])
    func stagesRunInOrderAndEveryItemOnce(threads: Int) {
        let pool = WorkerPool(threadCount: threads)
        let counts = [500, 0, 3, 1, 777, 64, 1, 1, 300, 2]
        let units = [7, 5, 1, 1, 13, 64, 1, 1, 4, 1]
        let width = counts.max()!
        // runs[s * width + i]: times item i of stage s ran; early: pieces that found an item of
        // the stage before not yet run
        let runs = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: counts.count * width)
        defer { runs.deallocate() }
        let early = Counter(), split = Counter(), onWorkers = Counter()
        for step in 0..<200 {
            for k in 0..<(counts.count * width) { (runs + k).initialize(to: Atomic(0)) }
            early.value.store(0, ordering: .relaxed)
            pool.beginStep()
            pool.runProgram(counts: counts, units: units) { s, r, thread in
                precondition(thread < threads)
                if thread > 0 { onWorkers.value.add(1, ordering: .relaxed) }
                // a stage of one piece runs whole, in order, on one thread
                if units[s] >= counts[s] && r != 0..<counts[s] { split.value.add(1, ordering: .relaxed) }
                if let before = (0..<s).last(where: { counts[$0] > 0 }) {
                    for i in 0..<counts[before] where runs[before * width + i].load(ordering: .relaxed) == 0 {
                        early.value.add(1, ordering: .relaxed)
                    }
                }
                for i in r { runs[s * width + i].add(1, ordering: .relaxed) }
                if step % 7 == 3 && r.lowerBound == 0 { usleep(200) }   // a slow piece now and then
            }
            pool.endStep()
            let wrong = (0..<counts.count).flatMap { s in
                (0..<counts[s]).filter { runs[s * width + $0].load(ordering: .relaxed) != 1 }.map { (s, $0) }
            }
            #expect(wrong.isEmpty, "step \(step): items not run exactly once: \(wrong.prefix(5))")
            #expect(early.value.load(ordering: .relaxed) == 0, "step \(step): a stage began too early")
            #expect(split.value.load(ordering: .relaxed) == 0, "step \(step): a stage of one piece was split")
        }
        #expect(onWorkers.value.load(ordering: .relaxed) > 0, "no piece ran on a worker")
    }

    /// When a worker stalls in its first piece (here it waits, as a pre-empted thread would, until
    /// the caller has run a piece of the worker's share, or 2 s), the caller takes over the pieces
    /// of that share nobody has begun, so the stage waits for the one piece in progress, not for
    /// the rest of the share; every item still runs once.
    @Test func piecesOfAStalledWorkerAreTakenOver() {
        let pool = WorkerPool(threadCount: 2)
        let count = 1000, unit = 5, share = 500
        let workerBegan = Flag(), tookOver = Flag()
        let ranBy = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let runs = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer { ranBy.deallocate(); runs.deallocate() }
        var stalls = 0, takenOver = 0
        for _ in 0..<40 {
            pool.beginStep()
            runs.initialize(repeating: 0, count: count)
            ranBy.initialize(repeating: -1, count: count)
            workerBegan.value.store(false, ordering: .relaxed)
            tookOver.value.store(false, ordering: .relaxed)
            pool.runProgram(counts: [count], units: [unit]) { _, r, thread in
                // With the worker, the caller waits (up to 2 s) in its first piece until the
                // worker has begun one, so the worker's share cannot all go to the caller on a busy
                // machine that has not yet scheduled the worker; a step on the caller alone is one
                // range.
                if thread == 0 && r.lowerBound == 0 && r.count < count {
                    let deadline = ContinuousClock.now + .seconds(2)
                    while !workerBegan.value.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(50) }
                }
                for i in r { runs[i] += 1; ranBy[i] = thread }
                if thread == 0 && r.lowerBound >= share { tookOver.value.store(true, ordering: .releasing) }
                guard thread == 1, !workerBegan.value.load(ordering: .relaxed) else { return }
                workerBegan.value.store(true, ordering: .releasing)
                let deadline = ContinuousClock.now + .seconds(2)
                while !tookOver.value.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(50) }
            }
            #expect((0..<count).allSatisfy { runs[$0] == 1 })
            #expect((0..<count).allSatisfy { (0..<pool.threadCount).contains(ranBy[$0]) })
            if workerBegan.value.load(ordering: .acquiring) {
                stalls += 1
                // the caller ran part of the share the worker was stuck in
                if tookOver.value.load(ordering: .acquiring) && (share..<count).contains(where: { ranBy[$0] == 0 }) {
                    takenOver += 1
                }
            }
            pool.endStep()
        }
        #expect(stalls > 0, "no step ran with the worker")
        #expect(takenOver == stalls, "the caller took over \(takenOver) of \(stalls) stalled shares")
    }

    /// A thread that has finished its share waits for another thread that is at work on its own
    /// (claiming piece after piece), rather than taking its pieces: a taken piece's data sits in
    /// the owner's cache. Here the worker's pieces take 300 µs each and the stall time is 2 s, so
    /// the caller must run none of the worker's share (before the twenty-seventh session it took
    /// half of what was left as soon as its own share was done).
    @Test func piecesOfAWorkerAtWorkAreLeftToIt() {
        let pool = WorkerPool(threadCount: 2)
        let count = 200, unit = 5, share = 100
        let workerBegan = Flag()
        let ranBy = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer { ranBy.deallocate() }
        var withWorker = 0
        for _ in 0..<5 {
            pool.beginStep()
            ranBy.initialize(repeating: -1, count: count)
            workerBegan.value.store(false, ordering: .relaxed)
            pool.runProgram(counts: [count], units: [unit], stallNanoseconds: 2_000_000_000) { _, r, thread in
                // the caller waits in its first piece (up to 2 s) until the worker has begun, so
                // the worker's share is not taken for being late
                if thread == 0 && r.lowerBound == 0 && r.count < count {
                    let deadline = ContinuousClock.now + .seconds(2)
                    while !workerBegan.value.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(50) }
                }
                for i in r { ranBy[i] = thread }
                if thread == 1 {
                    workerBegan.value.store(true, ordering: .releasing)
                    usleep(300)
                }
            }
            pool.endStep()
            #expect((0..<count).allSatisfy { ranBy[$0] >= 0 })
            guard workerBegan.value.load(ordering: .acquiring) else { continue }
            withWorker += 1
            let taken = (share..<count).filter { ranBy[$0] == 0 }.count
            #expect(taken == 0, "the caller took \(taken) items of the worker's share while it was at work")
        }
        #expect(withWorker > 0, "no step ran with the worker")
    }
}
