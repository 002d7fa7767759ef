@testable import DynamicsEngine
import Foundation
import Synchronization
import Testing

/// The pool's own rules, seen from inside: every block of every stage runs exactly once, whether
/// the workers spin, park between stages or sit a step out.
@Suite struct WorkerPoolParkingTests {
    /// Stages separated by pauses longer than `parkAfter`, so the workers park before most of
    /// them and must be woken: no block is lost or run twice, and every stage returns.
    @Test func parkedWorkersMissNoBlock() {
        let pool = WorkerPool(threadCount: 3)
        let blocks = 48
        let runs = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
        defer { runs.deallocate() }
        for step in 0..<12 {
            pool.beginStep()
            for stage in 0..<8 {
                runs.initialize(repeating: 0, count: blocks)
                pool.run(blocks: blocks) { b in runs[b] += 1 }   // a block is claimed once, so never raced
                let counts = (0..<blocks).map { runs[$0] }
                #expect(counts.allSatisfy { $0 == 1 }, "step \(step) stage \(stage): \(counts)")
                if stage % 2 == 1 { usleep(3_000) }   // ≫ parkAfter (300 µs): the workers park
            }
            pool.endStep()
        }
    }

    /// `forEachChunk` covers `0..<count` once, in ranges that do not overlap, with chunk numbers
    /// below `maximumChunks`, on every kind of step the pool chooses (with workers, or the caller
    /// alone after timing both).
    @Test func chunksCoverTheRangeOnceOnEveryKindOfStep() {
        let pool = WorkerPool(threadCount: 2)
        let count = 1000
        let seen = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let chunkOf = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer { seen.deallocate(); chunkOf.deallocate() }
        for _ in 0..<70 {   // both kinds run while the pool first times them, and at the first probe
            pool.beginStep()
            seen.initialize(repeating: 0, count: count)
            pool.forEachChunk(count, minimum: 10) { r, chunk in
                for i in r { seen[i] += 1; chunkOf[i] = chunk }
            }
            #expect((0..<count).allSatisfy { seen[$0] == 1 })
            #expect((0..<count).allSatisfy { chunkOf[$0] < pool.maximumChunks })
            pool.endStep()
        }
    }

    /// `forEachUnit` covers `0..<count` once, with thread numbers below `threadCount`; and when a
    /// worker stalls in the middle of its block (here it waits in its first unit, as a pre-empted
    /// thread would, until the caller has run a unit of that block, or 2 s), the caller takes over
    /// the units of that block nobody has begun, so the stage waits for the one unit in progress,
    /// not for the rest of the block.
    @Test func unitsOfAStalledWorkerAreTakenOver() {
        let pool = WorkerPool(threadCount: 2)
        let count = 1000, unit = 5, blockSize = 125   // 8 blocks: 4 a thread, at least 10 items each
        let workerBegan = Flag(), tookOver = Flag()
        let stalledBlock = Counter()
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
            stalledBlock.value.store(-1, ordering: .relaxed)
            pool.forEachUnit(count, minimum: 10, unit: unit) { r, thread in
                // In a step with the worker, the caller waits (up to 2 s) in its first unit until the
                // worker has begun one, so the worker's block cannot all go to the caller on a busy
                // machine that has not yet scheduled the worker; a step on the caller alone is one range.
                if thread == 0 && r.lowerBound == 0 && r.count < count {
                    let deadline = ContinuousClock.now + .seconds(2)
                    while !workerBegan.value.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(50) }
                }
                for i in r { runs[i] += 1; ranBy[i] = thread }
                if thread == 0 && r.lowerBound / blockSize == stalledBlock.value.load(ordering: .acquiring) {
                    tookOver.value.store(true, ordering: .releasing)
                }
                guard thread == 1, !workerBegan.value.load(ordering: .relaxed) else { return }
                stalledBlock.value.store(r.lowerBound / blockSize, ordering: .releasing)
                workerBegan.value.store(true, ordering: .releasing)
                let deadline = ContinuousClock.now + .seconds(2)
                while !tookOver.value.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(50) }
            }
            #expect((0..<count).allSatisfy { runs[$0] == 1 })
            #expect((0..<count).allSatisfy { (0..<pool.threadCount).contains(ranBy[$0]) })
            let block = stalledBlock.value.load(ordering: .acquiring)
            if block >= 0 {
                stalls += 1
                // the caller ran part of the block the worker was stuck in
                let stuck = (block * blockSize)..<((block + 1) * blockSize)
                if tookOver.value.load(ordering: .acquiring) && stuck.contains(where: { ranBy[$0] == 0 }) { takenOver += 1 }
            }
            pool.endStep()
        }
        #expect(stalls > 0, "no step ran with the worker")
        #expect(takenOver == stalls, "the caller took over \(takenOver) of \(stalls) stalled blocks")
    }
}

/// A flag two threads of a test share.
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

/// A number two threads of a test share.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
