import Foundation
import Synchronization

/// A small pool of worker threads for the step's parallel loops (Box2D v3's approach, simplified).
///
/// A step is a sequence of short stages (a colour of the solver, the narrow phase…), each cut into
/// blocks that threads claim with an atomic counter; the caller works too and returns when every
/// block is done. Between stages a worker spins for up to `Shared.parkAfter` (the solver's stages
/// follow each other within microseconds, far less than a sleep and wake), then parks on a
/// condition until the next stage: a serial phase of the step (colouring, the pair bookkeeping)
/// then leaves the core to whoever needs it — on a machine where another process loads a core, a
/// spinning worker would take the time of the very thread it waits for. Between steps workers
/// sleep, so an idle world costs no CPU.
/// Results never depend on the thread count: every parallel loop writes only its own blocks' data,
/// and anything that must be ordered is merged afterwards in a fixed order.
final class WorkerPool: @unchecked Sendable {
    /// Threads including the caller.
    let threadCount: Int
    /// What the workers share with the caller. The worker threads hold only this, never the pool,
    /// so dropping the world drops the pool, whose `deinit` stops and joins them.
    let shared: Shared
    private var currentGeneration: UInt64 = 0
    /// Which kind of step is faster lately, with the workers or without (see `beginStep`).
    private var chooser = StepKindChooser()
    private var stepStart = ContinuousClock.now
    private var isParallelStep = false
    /// Steps so far that ran on the calling thread alone because that was faster.
    private(set) var soloSteps = 0
    /// The kind the last non-probe step took (true: with the workers).
    private var choseParallel: Bool { chooser.choseParallel }

    init(threadCount: Int) {
        self.threadCount = max(1, min(threadCount, 64))
        shared = Shared()
        for i in 1..<self.threadCount {
            let shared = self.shared
            shared.liveWorkers.add(1, ordering: .relaxed)
            let t = Thread { shared.workerLoop(thread: i) }
            t.name = "swift-dynamics worker \(i)"
            t.start()
        }
    }

    deinit {
        shared.stop()
    }

    /// Starts a step: with the workers (woken) or on the calling thread alone, whichever has been
    /// faster lately (`StepKindChooser`).
    ///
    /// Why choose: on a machine where another process loads a core, a worker gets a share of a
    /// core, and every stage waits at its end for the blocks the worker claimed; two threads then
    /// run slower than one. Results are identical either way: the blocks and their merge order do
    /// not depend on who runs them.
    func beginStep() {
        guard threadCount > 1 else { return }
        let parallel = chooser.nextStepIsParallel()
        isParallelStep = parallel
        if !parallel {
            soloSteps += 1
            // awake since work between steps (`forEachRangeBetweenSteps`): back to sleep
            shared.active.store(false, ordering: .releasing)
        }
        if parallel {
            shared.active.store(true, ordering: .releasing)
            shared.wake.lock(); shared.wake.broadcast(); shared.wake.unlock()
        }
        stepStart = ContinuousClock.now
    }

    /// Ends a step: the workers go back to sleep, and the step's time goes to the chooser.
    func endStep() {
        guard threadCount > 1 else { return }
        let elapsed = ContinuousClock.now - stepStart
        if isParallelStep { shared.active.store(false, ordering: .releasing) }
        let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        chooser.record(seconds: t)
    }

    /// Whether a stage published now runs on several threads: the pool has workers and this step
    /// (or the work between steps) took them. For work whose parallel form costs more than its
    /// serial one when it runs on the caller alone.
    var runsInParallel: Bool { threadCount > 1 && shared.active.load(ordering: .acquiring) }

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
        publish(blocks: blocks, remaining: blocks) { b, _ in
            guard b >= 0 else { return 0 }
            body(b)
            return 1
        }
    }

    /// Publishes a stage of `blocks` blocks, takes part, and waits until its `remaining` units of
    /// work are all done. `job(block, thread)` runs a block and returns the units it did;
    /// `job(-1, thread)` is a thread's last call of the stage, to help with what others left.
    private func publish(blocks: Int, remaining: Int, _ job: @escaping (Int, Int) -> Int) {
        shared.job = job
        currentGeneration = (currentGeneration + 1) & 0xFF_FFFF
        shared.remaining.store(remaining, ordering: .relaxed)
        shared.state.store(currentGeneration << 40 | UInt64(blocks) << 20, ordering: .releasing)   // front 0, back `blocks`
        shared.generation.add(1, ordering: .sequentiallyConsistent)
        // Parked workers are woken only when there are any: during the solver's stages they spin,
        // and a stage costs no system call.
        if shared.parked.load(ordering: .sequentiallyConsistent) > 0 {
            shared.wake.lock(); shared.wake.broadcast(); shared.wake.unlock()
        }
        shared.participate(fromBack: false, thread: 0)
        var spins = 0
        while shared.remaining.load(ordering: .acquiring) > 0 {
            spins += 1
            if spins < 256 { shared.spinPause() } else { sched_yield() }
        }
        shared.job = nil
    }

    /// `forEachRange` between steps (per-item work a world's owner does before stepping it, such
    /// as force fields over a crowd): when the steps lately ran with the workers, they are woken
    /// for it and stay awake until the next step begins (it chooses again), so several such loops
    /// in a row pay for one wake-up; otherwise, and inside a step, as usual.
    func forEachRangeBetweenSteps(_ count: Int, minimum: Int, _ body: @escaping (Range<Int>) -> Void) {
        if threadCount > 1, choseParallel, count >= 2 * minimum, !shared.active.load(ordering: .acquiring) {
            shared.active.store(true, ordering: .releasing)
            shared.wake.lock(); shared.wake.broadcast(); shared.wake.unlock()
        }
        forEachRange(count, minimum: minimum, body)
    }

    /// Splits `0..<count` into about `4 × threads` ranges (at least `minimum` items each) and runs
    /// `body` on each.
    func forEachRange(_ count: Int, minimum: Int = 32, _ body: @escaping (Range<Int>) -> Void) {
        guard count > 0 else { return }
        // one chunk: called here, without the wrappers (each a heap allocation) of the split path
        if chunkCount(count, minimum: minimum) == 1 { body(0..<count); return }
        forEachChunk(count, minimum: minimum) { r, _ in body(r) }
    }

    /// How many chunks `forEachChunk` cuts `count` items into, `minimum` at least each.
    private func chunkCount(_ count: Int, minimum: Int) -> Int {
        threadCount == 1 ? 1 : max(1, min(maximumChunks, count / max(1, minimum)))
    }

    /// Whether `forEachRange` or `forEachChunk` would run `count` items (`minimum`
    /// at least a chunk) on the caller, in order, as one range would: then a caller may run its
    /// loop itself and form no closure (an escaping closure that captures is a heap allocation).
    func runsSerially(_ count: Int, minimum: Int) -> Bool {
        !runsInParallel || chunkCount(count, minimum: minimum) == 1
    }

    /// The most chunks `forEachChunk` makes: 1 on one thread, else 4 × threads.
    var maximumChunks: Int { threadCount == 1 ? 1 : 4 * threadCount }

    /// Like `forEachRange`, and also passes the chunk's number (0..<`maximumChunks`), so a chunk
    /// can own scratch space no other chunk running at the same time touches.
    func forEachChunk(_ count: Int, minimum: Int = 32, _ body: @escaping (Range<Int>, Int) -> Void) {
        guard count > 0 else { return }
        let parts = chunkCount(count, minimum: minimum)
        if parts == 1 { body(0..<count, 0); return }
        let size = (count + parts - 1) / parts
        run(blocks: (count + size - 1) / size) { b in
            body((b * size)..<min(count, (b + 1) * size), b)
        }
    }

    /// How long (ns) the owner of a share of a patient stage (`runProgram`) may finish no piece
    /// before another thread that has finished its own share takes its pieces: 10 µs. A piece is
    /// 0.3–5 µs of work (8 to 64 wide constraints, 64 bodies, 32 joints), so an owner at work
    /// finishes one well within it; a pre-empted one is away for milliseconds, of which this is a
    /// small part.
    static let stallNanoseconds = 10_000

    /// A monotonic clock in nanoseconds, for the program's stall test (a few tens of ns to read).
    static func monotonicNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }

    /// Runs a program of stages on every thread at once, each stage after the one before it has
    /// ended on every thread: stage `s` covers items `0..<counts[s]`, handed out `units[s]` at a
    /// time, and `body(s, range, thread)` runs one such piece (`thread` below `threadCount`, for
    /// scratch space of its own). A stage's pieces may run on any thread in any order (a colour's
    /// constraints), each piece once; a stage whose unit is all its items is one piece, its items
    /// in order.
    ///
    /// Why pieces: a piece, once begun, cannot be handed back (the constraints update velocities
    /// in place, so running part of one twice would apply impulses twice), and a thread never
    /// holds a piece it has not begun, so a stage waits at most for the piece of a thread the
    /// system pre-empted, not for the rest of its share.
    ///
    /// Why a program rather than a stage published at a time: the solver runs a few hundred short
    /// stages a step (three passes over some twenty colours, four sub-steps), and a published
    /// stage cost about 0.8 µs on the 2-vCPU guest even when it held almost no work (the closure
    /// formed and read, the blocks claimed on one shared word, the count of blocks left counted
    /// down, the workers noticing the stage; 20 000 near-empty such stages, 2026-11-28),
    /// where two threads pass a word to each other in about 0.06 µs. Here every thread knows the
    /// whole program, so a stage's end is the only meeting: each thread first takes the pieces
    /// of its own share of the stage (a word only it writes unless it falls behind), then waits
    /// until the items done by all threads (one counter each, in a cache line of its own) reach
    /// the stage's end, meanwhile taking pieces nobody has begun of the others' shares: in a
    /// `patient` stage (all, if `patient` is empty) only of a share whose owner had not begun it
    /// or has finished no piece for `stallNanoseconds` (`ProgramWalk.takeFromStalled`), else of
    /// any share. A thread that is late (pre-empted, or a worker not yet awake) finds its share
    /// taken and catches up stage by stage at no cost to the others; if no worker comes, the
    /// caller runs the whole program.
    func runProgram(
        counts: [Int], units: [Int], patient: [Bool] = [], stallNanoseconds: Int = WorkerPool.stallNanoseconds,
        _ body: @escaping (Int, Range<Int>, Int) -> Void
    ) {
        let stages = counts.count
        // One unit and (unless empty) one patience per stage: a list of another length is the
        // caller's mistake, which the walk would otherwise read past or silently treat as "all".
        assert(units.count == stages && (patient.isEmpty || patient.count == stages),
               "runProgram: \(stages) stages, \(units.count) units, \(patient.count) patience flags")
        guard stages > 0 else { return }
        let threads = threadCount
        if threads == 1 || !shared.active.load(ordering: .acquiring) {
            for s in 0..<stages where counts[s] > 0 { body(s, 0..<counts[s], 0) }
            return
        }
        shared.reserveProgram(stages: stages, threads: threads)
        let words = shared.programWords, done = shared.programDone
        let region = shared.programRegion, stride = Shared.unitWordStride
        for t in 0..<threads {
            for s in 0..<stages { words[t * region + s].store(0, ordering: .relaxed) }
            done[t * stride].store(0, ordering: .relaxed)
        }
        var ends = [Int](repeating: 0, count: stages)
        var total = 0
        for s in 0..<stages { total += counts[s]; ends[s] = total }
        let walk = ProgramWalk(
            threads: threads, counts: counts, units: units.map { max(1, $0) }, ends: ends,
            words: words, region: region, done: done, stride: stride,
            patient: patient.isEmpty ? [Bool](repeating: true, count: stages) : patient,
            stallNanoseconds: stallNanoseconds)
        // Instance b takes share b first and counts its items in counter b; one thread runs it,
        // with b's scratch space (the caller usually runs 0; a thread that took another instance
        // after finishing its own only catches up).
        run(blocks: threads) { instance in walk.run(instance, body) }
    }

    /// A program's layout as each thread walks it (see `WorkerPool.runProgram`).
    private struct ProgramWalk: @unchecked Sendable {
        let threads: Int
        let counts: [Int], units: [Int], ends: [Int]
        /// Claim words: share t of stage s at `t * region + s`.
        let words: UnsafeMutablePointer<Atomic<Int>>
        let region: Int
        /// Items done per instance, `stride` words apart.
        let done: UnsafeMutablePointer<Atomic<Int>>
        let stride: Int
        /// Per stage: whether a thread leaves another's share to its owner while the owner is at
        /// work (`takeFromStalled`), or takes any piece left (`takeAny`).
        let patient: [Bool]
        /// How long another share's owner must finish no piece before this thread takes its pieces.
        let stallNanoseconds: Int

        /// Instance `me`'s walk through the program.
        func run(_ me: Int, _ body: (Int, Range<Int>, Int) -> Void) {
            var mine = done[me * stride].load(ordering: .relaxed)
            // per other share: its owner's count of items done when last seen, and since when (ns;
            // 0: the owner is known to be away)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * threads) { seen in
                for s in 0..<counts.count {
                    let n = counts[s]
                    guard n > 0 else { continue }
                    let unit = units[s]
                    // a stage of one piece (run in order on one thread) is one share, the first
                    let shares = unit >= n ? 1 : threads
                    func bounds(_ share: Int) -> (lo: Int, hi: Int) { (n * share / shares, n * (share + 1) / shares) }
                    // one piece of a share, if any is left; whether one ran
                    func take(_ share: Int) -> Bool {
                        let (lo, hi) = bounds(share)
                        let start = lo + words[share * region + s].wrappingAdd(unit, ordering: .relaxed).oldValue
                        if start >= hi { return false }
                        let end = min(hi, start + unit)
                        body(s, start..<end, me)
                        mine += end - start
                        done[me * stride].store(mine, ordering: .releasing)
                        return true
                    }
                    while take(me % shares) {}
                    for k in 0..<shares { seen[2 * k] = -1 }
                    // the stage ends when every thread's count of items done reaches its end
                    let target = ends[s]
                    var spins = 0
                    while true {
                        var sum = 0
                        for t in 0..<threads { sum += done[t * stride].load(ordering: .acquiring) }
                        if sum >= target { break }
                        let took = shares > 1
                            && (patient[s]
                                ? takeFromStalled(me, shares, s, seen, bounds, take)
                                : takeAny(me, shares, s, bounds, take))
                        if took {
                            spins = 0
                            continue
                        }
                        spins += 1
                        if spins < 4096 {
                            for _ in 0..<4 { _ = done[me * stride].load(ordering: .relaxed) }
                        } else {
                            sched_yield()
                        }
                    }
                }
            }
        }

        /// Takes one piece left in another thread's share of stage `s`. Whether a piece ran.
        @inline(__always)
        private func takeAny(
            _ me: Int, _ shares: Int, _ s: Int, _ bounds: (Int) -> (lo: Int, hi: Int), _ take: (Int) -> Bool
        ) -> Bool {
            for k in 1..<shares {
                let share = (me + k) % shares
                let (lo, hi) = bounds(share)
                // look before claiming, so a share that is done costs a read
                if lo + words[share * region + s].load(ordering: .relaxed) < hi && take(share) { return true }
            }
            return false
        }

        /// Takes one piece of another thread's share of stage `s` if that thread is not at work on
        /// it: it had not begun the share when this thread finished its own (the stage began for
        /// both at once), or it has finished no piece for `stallNanoseconds`. Whether a piece ran.
        ///
        /// Why not take any piece left, as until the twenty-seventh session: a taken piece's rows
        /// and constraint records sit in the owner's cache, so the taker runs it at about twice
        /// the owner's cost and leaves its bodies' rows to miss in the owner's next pieces. On an
        /// idle 2-vCPU guest the threads took 6.5 % of junkyard's pieces from each other only
        /// because one finished its share a little sooner, and a two-thread junkyard wide
        /// constraint cost 108 ns against 71 on one thread (169 ns when taken from the other's
        /// share). Waiting for the owner's last pieces is cheaper; a stalled owner is still
        /// relieved, after one wait of `stallNanoseconds`, and a late one at once.
        @inline(__always)
        private func takeFromStalled(
            _ me: Int, _ shares: Int, _ s: Int, _ seen: UnsafeMutableBufferPointer<Int>,
            _ bounds: (Int) -> (lo: Int, hi: Int), _ take: (Int) -> Bool
        ) -> Bool {
            for k in 1..<shares {
                let share = (me + k) % shares
                // the owner's progress: its count of items done, which the stage's end polls anyway
                // (its claim word would be one more line the owner writes and this thread reads)
                let progress = done[share * stride].load(ordering: .relaxed)
                if seen[2 * share] == -1 {
                    // first look this stage: a share its owner has not begun is taken at once
                    let (lo, hi) = bounds(share)
                    let claimed = words[share * region + s].load(ordering: .relaxed)
                    seen[2 * share] = progress
                    seen[2 * share + 1] = claimed == 0 && lo < hi ? 0 : WorkerPool.monotonicNanoseconds()
                } else if progress != seen[2 * share] {
                    // the owner finished a piece since the last look: at work, not stalled
                    seen[2 * share] = progress
                    seen[2 * share + 1] = WorkerPool.monotonicNanoseconds()
                    continue
                }
                let since = seen[2 * share + 1]
                if since != 0 && WorkerPool.monotonicNanoseconds() - since < stallNanoseconds { continue }
                let (lo, hi) = bounds(share)
                guard lo + words[share * region + s].load(ordering: .relaxed) < hi, take(share) else { continue }
                // still stalled unless the owner finishes a piece meanwhile: the next look takes at once
                seen[2 * share + 1] = 0
                return true
            }
            return false
        }
    }

    /// The state the caller and the workers share.
    final class Shared: @unchecked Sendable {
        /// One word so a claim can never mix two jobs: generation (24 bits) | back (20) | front (20).
        /// The caller claims blocks from the front, the workers from the back, until they meet.
        ///
        /// Why two ends: a stage's blocks are the same contacts (and mostly the same bodies) in
        /// every sub-step, so a thread that takes the same end each time finds its blocks' data
        /// still in its own core's cache; with one shared counter the blocks went to whichever
        /// thread came first, and their data moved between cores stage after stage. (Box2D gives
        /// each worker its own starting block for the same reason.)
        let state = Atomic<UInt64>(0)
        let generation = Atomic<Int>(0)
        let remaining = Atomic<Int>(0)
        let active = Atomic<Bool>(false)
        let stopping = Atomic<Bool>(false)
        /// Worker threads whose loop has not returned yet.
        let liveWorkers = Atomic<Int>(0)
        /// Workers parked inside a step, waiting on `wake` for the next stage.
        let parked = Atomic<Int>(0)
        /// How long an idle worker spins before it parks. Longer than the gap between two solver stages
        /// (a few µs) and than most of the step's serial phases (the sort's prefix sums, the pair
        /// bookkeeping), shorter than a serial phase worth giving the core away for. A parked worker
        /// costs the next stage a wake-up: a system call for the caller, and on a virtual machine more
        /// time still before the worker joins while the caller works alone. At 40 µs the workers
        /// parked in most steps' serial phases: on a 2-vCPU guest (2026-11-27, interleaved, min of 3)
        /// two threads at 300 µs took 0.84–0.86× their time at 40 µs on joint_grid, 0.92–0.93× on
        /// washer, 0.96–0.98× on junkyard, compounds and smash, and the same on the pyramids. A machine
        /// whose other cores are busy is handled by the choice per step (`beginStep`), not by parking
        /// early.
        static let parkAfter = Duration.microseconds(300)
        let wake = NSCondition()
        /// Signalled by each worker as its loop returns.
        let exited = NSCondition()
        var job: ((Int, Int) -> Int)? = nil
        /// Words apart of the threads' counters of a program (`programDone`): 128 bytes, so two
        /// threads never write one cache line (nor a pair the processor fetches together).
        static let unitWordStride = 16

        /// A program's claim words (`WorkerPool.runProgram`): thread t's share of stage s at
        /// `t * programRegion + s`, so each thread's words lie together, apart from the others'.
        private(set) var programWords = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 0)
        private(set) var programRegion = 0
        private var programThreads = 0
        /// Items done so far in the program running, per thread, `unitWordStride` words apart.
        let programDone: UnsafeMutablePointer<Atomic<Int>> = {
            let words = 64 * Shared.unitWordStride
            let p = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: words)
            for k in 0..<words { (p + k).initialize(to: Atomic(0)) }
            return p
        }()

        /// Makes room for a program of `stages` stages on `threads` threads (the caller, between
        /// programs: no thread is in one).
        func reserveProgram(stages: Int, threads: Int) {
            guard stages > programRegion - Shared.unitWordStride || threads > programThreads else { return }
            programWords.deinitialize(count: programRegion * programThreads)
            programWords.deallocate()
            // room to grow, and a gap of a cache line pair between two threads' words
            programRegion = max(2 * stages, 256) + Shared.unitWordStride
            programThreads = threads
            programWords = .allocate(capacity: programRegion * threads)
            for k in 0..<(programRegion * threads) { (programWords + k).initialize(to: Atomic(0)) }
        }

        deinit {
            programWords.deinitialize(count: programRegion * programThreads)
            programWords.deallocate()
            programDone.deinitialize(count: 64 * Shared.unitWordStride)
            programDone.deallocate()
        }

        /// Tells the workers to stop and waits until every loop has returned.
        func stop() {
            stopping.store(true, ordering: .releasing)
            wake.lock(); wake.broadcast(); wake.unlock()
            exited.lock()
            while liveWorkers.load(ordering: .acquiring) > 0 { exited.wait() }
            exited.unlock()
        }

        /// Claims and runs blocks of the current stage until none is left. The stage's closure is
        /// read once, after the first claim (which proves the stage is still running, so the
        /// closure is its own), and the blocks done are counted down once, on the way out: per
        /// block, both were an atomic write to a cache line the other thread also writes (the
        /// closure's reference count, the count of blocks left).
        func participate(fromBack: Bool, thread: Int) {
            var v = state.load(ordering: .acquiring)
            let gen = v >> 40
            var stageJob: ((Int, Int) -> Int)? = nil
            var done = 0
            defer { if done > 0 { remaining.subtract(done, ordering: .releasing) } }
            while true {
                if v >> 40 != gen { return }
                let back = (v >> 20) & 0xF_FFFF, front = v & 0xF_FFFF
                if front >= back {
                    // every block is taken: help with the units of those still running
                    if let stageJob { done += stageJob(-1, thread) }
                    return
                }
                let index = fromBack ? back - 1 : front
                let desired = fromBack ? v - (1 << 20) : v + 1
                let (exchanged, original) = state.compareExchange(expected: v, desired: desired, ordering: .acquiringAndReleasing)
                if !exchanged { v = original; continue }
                if stageJob == nil { stageJob = job }
                done += stageJob?(Int(index), thread) ?? 0
                v = state.load(ordering: .acquiring)
            }
        }

        @inline(__always) func spinPause() {
            // a short pause lets the other hyper-thread run
            for _ in 0..<8 { _ = generation.load(ordering: .relaxed) }
        }

        func workerLoop(thread: Int) {
            defer {
                exited.lock()
                liveWorkers.subtract(1, ordering: .releasing)
                exited.broadcast()
                exited.unlock()
            }
            // none seen yet: a worker whose thread starts after the first stage was published joins
            // it (taking part in a stage that is over, or whose blocks are taken, claims nothing)
            var seen = -1
            var idleSpins = 0
            var idleSince = ContinuousClock.now
            while !stopping.load(ordering: .acquiring) {
                if !active.load(ordering: .acquiring) {
                    wake.lock()
                    while !active.load(ordering: .acquiring) && !stopping.load(ordering: .acquiring) {
                        _ = wake.wait(until: Date(timeIntervalSinceNow: 0.05))
                    }
                    wake.unlock()
                    continue
                }
                let g = generation.load(ordering: .sequentiallyConsistent)
                if g != seen {
                    seen = g
                    participate(fromBack: true, thread: thread)
                    idleSpins = 0
                    idleSince = ContinuousClock.now
                } else {
                    spinPause()
                    idleSpins += 1
                    // the clock is read every 64 spins (a read costs about as much as a spin)
                    if idleSpins & 63 == 0 && ContinuousClock.now - idleSince > Shared.parkAfter {
                        park(seen)
                        idleSpins = 0
                        idleSince = ContinuousClock.now
                    }
                }
            }
        }

        /// Waits until a stage newer than `seen` is published, the step ends, or the pool stops.
        /// No stage is missed: the worker counts itself parked before it reads the generation, and
        /// the caller publishes a stage before it reads the count (both sequentially consistent),
        /// so at least one of them sees the other; the caller's broadcast takes the lock the worker
        /// holds until it waits.
        private func park(_ seen: Int) {
            wake.lock()
            parked.add(1, ordering: .sequentiallyConsistent)
            while generation.load(ordering: .sequentiallyConsistent) == seen
                    && active.load(ordering: .acquiring) && !stopping.load(ordering: .acquiring) {
                _ = wake.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            parked.subtract(1, ordering: .sequentiallyConsistent)
            wake.unlock()
        }
    }
}

/// Chooses, step after step, whether a step runs with the workers or on the calling thread alone:
/// the kind chosen runs, and now and then (a probe) the other, to notice a change — after 32 steps,
/// then after twice as many each time a probe leaves the choice as it was (up to 256, about 4 s at
/// 60 Hz), so a steady machine pays for a slower step about once in 256.
///
/// Why only a probe turns the choice, measured against the chosen kind's steps on both sides of
/// it: a scene's cost drifts, and fast (smash's wall goes from 0.3 to 15 ms a step within 50
/// steps of the impact; a pile grows; a crowd falls asleep), so a step compares fairly only with
/// its neighbours. The chooser used to weigh the two kinds' running averages at every step, one of
/// them as old as its last probe; on an idle 2-vCPU guest (2026-11-29) it then ran 42 of smash's
/// 300 steps without the workers, 64 of the tumbler's 750 and runs of 24–30 in the tumbler and
/// ui_fields, most of them 1.1–1.5 times as slow as a step with the workers.
///
/// Why the chosen kind's time is the median of its last three steps: one slow step (a worker the
/// system pre-empts in the middle of a stage) must neither turn the choice nor call a probe — on
/// the 2-vCPU guest about one step with the workers in 30 took 1.6–2.4 times the others (the
/// tumbler, 2026-11-28) — while a load that lasts slows every step; and in a scene that grows
/// step by step the median is one step old, where the least of the three is the oldest.
/// The world's first steps allocate and are not compared (smash's second step took 1.7 ms, its
/// third 0.31): the first probe comes after `firstProbeAfter` steps.
///
/// Why a probe may run early: between probes, when the chosen kind's time rises a quarter above
/// its time at the last probe (a load on the other core slows every step with the workers; or the
/// scene grew), a probe runs as soon as `driftProbeGap` steps have passed since the last one, so a
/// load that lasts turns the choice within a handful of steps. While a scene keeps growing, each
/// early probe that leaves the choice as it was doubles the wait before the next early one (8, 16,
/// 32…; back to 8 after a probe on schedule), so smash's rise costs a few probes, not one in 8.
///
/// Why the first step with the workers after steps without them is not timed: it is slower than the
/// next — the workers' cores have idled (on a virtual machine, waking an idle virtual core takes
/// the host's time) and their half of the data sits in the caller's cache. Timed, it made a probe of
/// the workers look as slow as 2.5 ms against 0.55 ms without them (the tumbler's early steps,
/// 2026-11-28, the 2-vCPU guest): the pool then kept to one thread for the rest of the run in about
/// 1 run of 3, ever more sure of it as its probes grew apart, and a two-thread run of the tumbler
/// took 1.5–1.6 ms a step instead of 1.15–1.2. So a probe of the workers is at least three steps,
/// the fastest timed one counting (see `longestParallelProbe`). A probe without the workers is one
/// step, timed: it is slowed a little the same way (half its data in the other core's cache),
/// which can only keep the workers, and a load that makes them slow shows in their own steps.
struct StepKindChooser {
    /// The kind chosen (true: with the workers); a probe runs the other.
    private(set) var choseParallel = true
    /// The chosen kind's last three timed steps, in seconds (newest first), and how many it has
    /// had since it was chosen (counted up to 3).
    private var recent = SIMD3<Double>(repeating: 0)
    private var timedSinceChoice = 0
    /// The chosen kind's time now: the median of its last three steps (see the type's comment).
    private var chosenTime: Double {
        let (a, b, c) = (recent.x, recent.y, recent.z)
        return max(min(a, b), min(max(a, b), c))
    }
    /// The chosen kind's time (seconds) when the last probe began, or when it was chosen.
    private var reference = 0.0
    /// Probes begun so far.
    private var probesBegun = 0
    /// Steps begun: the first is not timed (it finds every pair and builds the grid).
    private var stepsBegun = 0
    /// Steps begun since the last probe began.
    private var stepsSinceProbe = 0
    /// Steps between probes now: doubles (up to `longestProbeInterval`) each time a probe leaves
    /// the choice as it was, back to `probeInterval` when the choice turns.
    private var currentProbeInterval = StepKindChooser.probeInterval
    /// Steps from the start of a probe before an early one may run (see `driftProbeGap`).
    private var currentDriftGap = StepKindChooser.driftProbeGap
    /// Steps of the probe under way still to begin, and whether it runs early.
    private var probeStepsLeft = 0
    private var probeIsEarly = false
    /// The chosen kind's time before the probe under way (seconds), the probe's fastest timed step
    /// so far, and whether the probe is over and waits for the chosen kind's next timed step.
    private var probeBaseline = 0.0, probeBest = Double.infinity
    /// The probe's last timed step (seconds) and how many steps it has run.
    private var probeLast = Double.infinity, probeLength = 0
    private var probeAwaitsDecision = false
    /// The kinds of the step begun last and of the one before it (nil: none yet).
    private var current: Bool? = nil, previous: Bool? = nil

    /// Every this many steps at first, a probe of the other kind, to see whether things changed.
    static let probeInterval = 32
    /// The longest wait between probes: 256 steps, about 4 s at 60 Hz, the longest a change
    /// that does not show in the chosen kind's own steps (a load ending) goes unnoticed.
    static let longestProbeInterval = 256
    /// Steps a probe of the workers lasts at least: the first wakes their cores and warms their
    /// caches, the others are timed and the fastest counts.
    static let parallelProbeLength = 3
    /// Steps a probe of the workers may last: it goes on while each timed step is a tenth faster
    /// than the one before (the workers still waking).
    static let longestParallelProbe = 6
    /// Steps before the first probe: a world's first steps allocate, and time the scene's start.
    static let firstProbeAfter = 8
    /// How far (as a factor) the chosen kind's time may rise above its time at the last probe
    /// before a probe runs early.
    static let driftLimit = 1.25
    /// The fewest steps from the start of one probe to an early one; doubles (up to
    /// `longestProbeInterval`) each time an early probe leaves the choice as it was.
    static let driftProbeGap = 8

    /// The kind of the next step: true to run it with the workers.
    mutating func nextStepIsParallel() -> Bool {
        stepsBegun += 1
        let parallel: Bool
        if probeStepsLeft > 0 {
            probeStepsLeft -= 1
            probeLength += 1
            parallel = !choseParallel
        } else {
            stepsSinceProbe += 1
            let now = chosenTime
            let interval = probesBegun == 0 ? StepKindChooser.firstProbeAfter : currentProbeInterval
            let onSchedule = stepsSinceProbe >= interval
            let early = now > StepKindChooser.driftLimit * reference && stepsSinceProbe >= currentDriftGap
            if timedSinceChoice >= 3 && !probeAwaitsDecision && (onSchedule || early) {
                probesBegun += 1
                stepsSinceProbe = 0
                probeIsEarly = !onSchedule
                probeBaseline = now
                probeBest = .infinity
                probeLast = .infinity
                reference = now
                probeStepsLeft = choseParallel ? 0 : StepKindChooser.parallelProbeLength - 1
                probeLength = 1
                parallel = !choseParallel
            } else {
                parallel = choseParallel
            }
        }
        previous = current
        current = parallel
        return parallel
    }

    /// Takes the time of the step begun last, in seconds.
    mutating func record(seconds t: Double) {
        guard let current, t.isFinite, t >= 0 else { return }
        // the first step, or the first with the workers after one without: not timed
        guard stepsBegun > 1, !(current && previous == false) else { return }
        guard current == choseParallel else {
            // A probe's timed step. After a run without them, the workers' cores can take a few
            // steps to wake: at 0.5 ms a step, ui_fields' first three steps with them took 2.3,
            // 2.3 and 1.3 ms, then 0.5 (2026-11-29), so a probe of the workers goes on while it
            // is still getting faster.
            probeBest = min(probeBest, t)
            if probeStepsLeft == 0 && current && t < 0.9 * probeLast
                && probeLength < StepKindChooser.longestParallelProbe {
                probeStepsLeft = 1
            }
            probeLast = t
            if probeStepsLeft == 0 { probeAwaitsDecision = true }
            return
        }
        // the first timed step of a kind fills all three places
        recent = timedSinceChoice == 0 ? SIMD3(repeating: t) : SIMD3(t, recent.x, recent.y)
        timedSinceChoice = min(timedSinceChoice + 1, 3)
        guard probeAwaitsDecision else { return }
        probeAwaitsDecision = false
        // The probe against the chosen kind's time around it: the mean of the steps before and
        // after, so a scene growing or shrinking meanwhile counts on both sides (the step after
        // counted as at most 1.5 times the one before, in case it was pre-empted). Hysteresis both
        // ways: the workers keep their place unless the caller alone is clearly faster (noise must
        // not send a machine with idle cores down to one thread), and come back only when clearly
        // faster (under a load, a lucky probe brought back runs of slow steps: beside a busy loop,
        // large_pyramid 1.13 times the time, 2026-11-29).
        let around = 0.5 * (probeBaseline + min(t, 1.5 * probeBaseline))
        let turns = choseParallel ? 1.1 * probeBest < around : probeBest < 0.9 * around
        if turns {
            choseParallel.toggle()
            recent = SIMD3(repeating: probeBest)
            reference = probeBest
            timedSinceChoice = 1
            currentProbeInterval = StepKindChooser.probeInterval
            currentDriftGap = StepKindChooser.driftProbeGap
        } else {
            currentProbeInterval = min(2 * currentProbeInterval, StepKindChooser.longestProbeInterval)
            currentDriftGap = probeIsEarly
                ? min(2 * currentDriftGap, StepKindChooser.longestProbeInterval) : StepKindChooser.driftProbeGap
        }
    }
}

/// The least work a parallel loop hands one block, per kind of item: below it a block costs more
/// to hand out (an atomic claim and a cache line moved between cores) than it saves. Chosen by
/// measuring on two cores; on more, `forEachRange` still cuts at most 4 blocks a thread, so these
/// only matter for small stages.
enum SplitSize {
    /// Bodies (integrating velocities and positions, finalising) and joints being prepared or stored.
    static let bodies = 256
    /// Touching contacts whose impulses are stored into their records.
    static let storedContacts = 256
    /// Four-wide contact constraints being prepared or having impulses stored.
    static let wideConstraints = 64
    /// The fewest four-wide constraints of one colour a thread claims at a time in the sub-steps'
    /// program (`WorkerPool.runProgram`), so that another can take over the rest; a colour of no
    /// more is one piece, run on one thread.
    static let wideSolveUnit = 8
    /// The most four-wide constraints of one colour a thread claims at a time in the sub-steps'
    /// program: a colour's piece is a quarter of its constraints at two threads (`World.solvePiece`),
    /// at least `wideSolveUnit` and at most this.
    ///
    /// Why not `wideSolveUnit` for every colour, as until the thirtieth session: a claim is a locked
    /// add, which on x86 waits until the stores before it (the previous piece's body rows, often
    /// missing in cache) have left the store buffer; perf put 29 % of the program walk's samples on
    /// it in junkyard at two threads. Pieces of up to 64 took the solve phase 0.91–0.97× its time
    /// on two threads (4 interleaved rounds per scene; junkyard 0.91, many_pyramids 0.94); a
    /// piece is then 2–5 µs, still shorter than the `WorkerPool.stallNanoseconds` after which a
    /// stalled owner's pieces are taken.
    static let wideSolvePieceLimit = 64
    /// Four-wide constraints a run of small colours may hold, run as one stage on one thread in
    /// the sub-steps' program (`World.runSubstepProgram`): about what the threads' meeting at a
    /// stage's end costs.
    static let smallColorRun = 16
    /// Joints of one colour being solved.
    static let joints = 32
    /// Fewer joints of one colour than this are solved on the calling thread.
    static let serialJoints = 64
    /// Contacts per block of the narrow phase, whatever the thread count (each block's changes are
    /// merged in block order, so the result does not depend on the threads).
    static let narrowPhaseBlock = 256
    /// Moved proxies per block of the pair search, whatever the thread count (the blocks' candidates
    /// are merged in block order and sorted). A proxy's search walks its cells and a few dozen
    /// neighbours: a block of 64 is tens of microseconds, enough to outweigh its claim.
    static let pairSearchBlock = 64
    /// Touching contacts per block of the sort into solve order, whatever the thread count (each
    /// block's places are fixed by the counts of the blocks before it).
    static let orderBlock = 1024
    /// Fast bodies swept against static and kinematic shapes by continuous collision: a sweep
    /// queries the grid and may test several shapes, so blocks are small.
    static let sweepBlock = 16
    /// Solved contacts per part of the sleep phase's walk over them (`World.sleepLinks`): a few
    /// nanoseconds each, so parts are large.
    static let sleepContacts = 2048
}

extension World {
    /// Steps so far that ran on the calling thread alone because that was faster lately (another
    /// process loading the machine), or to check: see `WorkerPool.beginStep`. Always 0 on one thread.
    package var soloStepCount: Int { pool.soloSteps }

    /// Runs `body` on ranges covering `0..<count` (at least `minimum` items each) on the world's
    /// threads, between steps: for per-item work on the bodies before a step, such as a force field
    /// over a crowd. `body` must write only its own items' results; then, as in a step, the result
    /// does not depend on the thread count. Not for calls from inside a step.
    package func forEachRangeBetweenSteps(_ count: Int, minimum: Int, _ body: @escaping (Range<Int>) -> Void) {
        pool.forEachRangeBetweenSteps(count, minimum: minimum, body)
    }

    /// A counter of this world's worker threads still running, which keeps counting after the
    /// world is gone: tests use it to see that dropping a world ends its threads.
    package var workerThreadCounter: @Sendable () -> Int {
        let shared = pool.shared
        return { shared.liveWorkers.load(ordering: .acquiring) }
    }
}
