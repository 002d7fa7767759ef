import Foundation
import Synchronization

/// A small pool of worker threads for the step's parallel loops (Box2D v3's approach, simplified).
///
/// A step is a sequence of short stages (a colour of the solver, the narrow phase…), each cut into
/// blocks that threads claim with an atomic counter; the caller works too and returns when every
/// block is done. Between stages inside a step the workers spin (a stage lasts microseconds, far
/// less than a sleep/wake), and between steps they sleep, so an idle world costs no CPU.
/// Results never depend on the thread count: every parallel loop writes only its own blocks' data,
/// and anything that must be ordered is merged afterwards in a fixed order.
final class WorkerPool: @unchecked Sendable {
    /// Threads including the caller.
    let threadCount: Int
    /// What the workers share with the caller. The worker threads hold only this, never the pool,
    /// so dropping the world drops the pool, whose `deinit` stops and joins them.
    let shared: Shared
    private var currentGeneration: UInt64 = 0

    init(threadCount: Int) {
        self.threadCount = max(1, min(threadCount, 64))
        shared = Shared()
        for i in 1..<self.threadCount {
            let shared = self.shared
            shared.liveWorkers.add(1, ordering: .relaxed)
            let t = Thread { shared.workerLoop() }
            t.name = "swift-dynamics worker \(i)"
            t.start()
        }
    }

    deinit {
        shared.stop()
    }

    /// Workers spin for the duration of a step.
    func beginStep() {
        guard threadCount > 1 else { return }
        shared.active.store(true, ordering: .releasing)
        shared.wake.lock(); shared.wake.broadcast(); shared.wake.unlock()
    }

    /// Workers go back to sleep.
    func endStep() {
        shared.active.store(false, ordering: .releasing)
    }

    /// Runs `body(block)` for every block in 0..<blocks, on all threads; returns when all are done.
    func run(blocks: Int, _ body: @escaping (Int) -> Void) {
        guard blocks > 0 else { return }
        if threadCount == 1 || blocks == 1 || !shared.active.load(ordering: .acquiring) {
            for b in 0..<blocks { body(b) }
            return
        }
        if blocks >= 1 << 20 {
            for b in 0..<blocks { body(b) }
            return
        }
        shared.job = body
        currentGeneration = (currentGeneration + 1) & 0xFF_FFFF
        shared.remaining.store(blocks, ordering: .relaxed)
        shared.state.store(currentGeneration << 40 | UInt64(blocks) << 20, ordering: .releasing)
        shared.generation.add(1, ordering: .releasing)
        shared.participate()
        var spins = 0
        while shared.remaining.load(ordering: .acquiring) > 0 {
            spins += 1
            if spins < 256 { shared.spinPause() } else { sched_yield() }
        }
        shared.job = nil
    }

    /// Splits `0..<count` into about `4 × threads` ranges (at least `minimum` items each) and runs
    /// `body` on each.
    func forEachRange(_ count: Int, minimum: Int = 32, _ body: @escaping (Range<Int>) -> Void) {
        forEachChunk(count, minimum: minimum) { r, _ in body(r) }
    }

    /// The most chunks `forEachChunk` makes: 1 on one thread, else 4 × threads.
    var maximumChunks: Int { threadCount == 1 ? 1 : 4 * threadCount }

    /// Like `forEachRange`, and also passes the chunk's number (0..<`maximumChunks`), so a chunk
    /// can own scratch space no other chunk running at the same time touches.
    func forEachChunk(_ count: Int, minimum: Int = 32, _ body: @escaping (Range<Int>, Int) -> Void) {
        guard count > 0 else { return }
        let parts = threadCount == 1 ? 1 : max(1, min(maximumChunks, count / max(1, minimum)))
        let size = (count + parts - 1) / parts
        run(blocks: (count + size - 1) / size) { b in
            body((b * size)..<min(count, (b + 1) * size), b)
        }
    }

    /// The state the caller and the workers share.
    final class Shared: @unchecked Sendable {
        /// One word so a claim can never mix two jobs: generation (24 bits) | block count (20) | next block (20).
        let state = Atomic<UInt64>(0)
        let generation = Atomic<Int>(0)
        let remaining = Atomic<Int>(0)
        let active = Atomic<Bool>(false)
        let stopping = Atomic<Bool>(false)
        /// Worker threads whose loop has not returned yet.
        let liveWorkers = Atomic<Int>(0)
        let wake = NSCondition()
        /// Signalled by each worker as its loop returns.
        let exited = NSCondition()
        var job: ((Int) -> Void)? = nil

        /// Tells the workers to stop and waits until every loop has returned.
        func stop() {
            stopping.store(true, ordering: .releasing)
            wake.lock(); wake.broadcast(); wake.unlock()
            exited.lock()
            while liveWorkers.load(ordering: .acquiring) > 0 { exited.wait() }
            exited.unlock()
        }

        func participate() {
            var v = state.load(ordering: .acquiring)
            let gen = v >> 40
            while true {
                if v >> 40 != gen { return }
                let count = (v >> 20) & 0xF_FFFF, index = v & 0xF_FFFF
                if index >= count { return }
                let (exchanged, original) = state.compareExchange(expected: v, desired: v + 1, ordering: .acquiringAndReleasing)
                if !exchanged { v = original; continue }
                job?(Int(index))
                remaining.subtract(1, ordering: .releasing)
                v = state.load(ordering: .acquiring)
            }
        }

        @inline(__always) func spinPause() {
            // a short pause lets the other hyper-thread run
            for _ in 0..<8 { _ = generation.load(ordering: .relaxed) }
        }

        func workerLoop() {
            defer {
                exited.lock()
                liveWorkers.subtract(1, ordering: .releasing)
                exited.broadcast()
                exited.unlock()
            }
            var seen = generation.load(ordering: .acquiring)
            var idleSpins = 0
            while !stopping.load(ordering: .acquiring) {
                if !active.load(ordering: .acquiring) {
                    wake.lock()
                    while !active.load(ordering: .acquiring) && !stopping.load(ordering: .acquiring) {
                        _ = wake.wait(until: Date(timeIntervalSinceNow: 0.05))
                    }
                    wake.unlock()
                    continue
                }
                let g = generation.load(ordering: .acquiring)
                if g != seen {
                    seen = g
                    idleSpins = 0
                    participate()
                } else {
                    // spin briefly, then give the core away: on a busy machine a spinning worker
                    // would steal the time of the thread it waits for
                    idleSpins += 1
                    if idleSpins < 256 { spinPause() } else { sched_yield() }
                }
            }
        }
    }
}

/// The least work a parallel loop hands one block, per kind of item: below it a block costs more
/// to hand out (an atomic claim and a cache line moved between cores) than it saves. Chosen by
/// measuring on two cores; on more, `forEachRange` still cuts at most 4 blocks a thread, so these
/// only matter for small stages.
enum SplitSize {
    /// Bodies (integrating velocities and positions, finalising) and joints being prepared.
    static let bodies = 256
    /// Touching contacts whose impulses are stored into their records.
    static let storedContacts = 256
    /// Four-wide contact constraints being prepared or having impulses stored.
    static let wideConstraints = 64
    /// Four-wide constraints of one colour being solved (each is four contacts' work).
    static let wideSolve = 16
    /// Joints of one colour being solved.
    static let joints = 32
    /// Fewer joints of one colour than this are solved on the calling thread.
    static let serialJoints = 64
    /// Contacts per block of the narrow phase, whatever the thread count (each block's changes are
    /// merged in block order, so the result does not depend on the threads).
    static let narrowPhaseBlock = 256
}

extension World {
    /// A counter of this world's worker threads still running, which keeps counting after the
    /// world is gone: tests use it to see that dropping a world ends its threads.
    package var workerThreadCounter: @Sendable () -> Int {
        let shared = pool.shared
        return { shared.liveWorkers.load(ordering: .acquiring) }
    }
}
