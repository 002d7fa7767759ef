import DynamicsEngine
import Foundation

/// The motion of a field's items — position, velocity, mass — read from the engine once per step
/// and shared by every field of the animator that acts on the same items, in the same order.
///
/// Why it exists: a scene puts several fields on one crowd (ui_fields: a vortex, a radial gravity
/// and a noise field on the same 10 000 items). Each field used to read every item's body, which
/// is a cache miss per item per field (the engine's body records are large and scattered); reading
/// them once and handing the fields structure-of-arrays columns of `Double`s also lets the laws
/// load four items at a time (see `FieldLaw+Lanes.swift`).
///
/// When it is read again: a read is good for one force pass — it is stamped with the world and
/// its step count, which the engine step advances — and is dropped sooner whenever something in
/// the force pass may have changed the items' motion: an impulse (``PushBehavior`` in
/// instantaneous mode), a field waking sleeping items, a custom field's block, or a diagnostic
/// handler (any of them may run arbitrary code). `DynamicAnimator.invalidateSharedMotion()` drops
/// every crowd's read; code that changes bodies' motion during the force pass must call it. Debug
/// builds check every reuse against a fresh read.
///
/// Which fields share: a field looks, when it synchronises, for another field of the animator
/// whose items are in the world as the same bodies in the same order, and takes its crowd; else it
/// makes its own. A field whose items change makes a new crowd (the old one stays with the fields
/// that still have those items), so a crowd's bodies are always those of every field holding it.
final class FieldCrowd {
    /// The bodies, in the fields' item order.
    let bodies: [BodyID]
    /// The origins' positions (pt), the centres of mass' velocities (pt/s) and the masses (0 for
    /// an item that takes no force now: asleep, anchored or kinematic), one entry per body, as the
    /// engine's single-precision state widened to `Double`.
    private(set) var x: [Double] = [], y: [Double] = []
    private(set) var vx: [Double] = [], vy: [Double] = []
    private(set) var mass: [Double] = []
    /// What the fields sharing the read give the bodies, held for one store (see `hold()`).
    private var held: HeldColumns?
    /// Whether `held` has forces or timer restarts the bodies do not have yet.
    private var holdsForces = false
    /// Whether no body appears twice, so that ranges of the bodies may take their forces on
    /// several threads at once (`applyForces`). Distinct items have distinct bodies; checked once.
    private(set) lazy var bodiesAreDistinct: Bool = {
        let indices = bodies.map(\.index).sorted()
        return zip(indices, indices.dropFirst()).allSatisfy { $0 != $1 }
    }()
    /// The fewest items a thread reads or gives forces to in a range: both are a few nanoseconds
    /// an item, so a range must be long to be worth handing to another thread.
    static let itemsPerThread = 2_048
    /// The world and its step count at the read; nil when there is no read to share.
    private var stamp: (world: ObjectIdentifier, step: Int)?

    init(bodies: [BodyID]) {
        self.bodies = bodies
    }

    deinit { held?.deallocate() }

    /// Drops the read: the next field to use the crowd reads the engine again. The forces it holds
    /// must have been stored (`storeForces`).
    func invalidate() {
        assert(!holdsForces, "FieldCrowd: a read dropped with forces the bodies do not have yet")
        stamp = nil
    }

    /// Makes the columns hold the bodies' motion in `world` now: reads them unless this force pass
    /// has read them already (and nothing has dropped the read since).
    func refresh(from world: World) {
        let now = (world: ObjectIdentifier(world), step: world.stepCount)
        if let stamp, stamp == now {
            #if DEBUG
                verify(against: world)
            #endif
            return
        }
        // Forces held from before would be lost by the read (the animator stores them first).
        if holdsForces { storeForces(in: world) }
        let n = bodies.count
        if x.count != n {
            x = Array(repeating: 0, count: n); y = x; vx = x; vy = x; mass = x
        }
        if held == nil { held = HeldColumns(count: n) }
        let held = held!
        // Straight into the columns, in ranges on the world's threads (each writes its own rows).
        bodies.withUnsafeBufferPointer { ids in
            x.withUnsafeMutableBufferPointer { x in
                y.withUnsafeMutableBufferPointer { y in
                    vx.withUnsafeMutableBufferPointer { vx in
                        vy.withUnsafeMutableBufferPointer { vy in
                            mass.withUnsafeMutableBufferPointer { mass in
                                let px = x.baseAddress!, py = y.baseAddress!, pvx = vx.baseAddress!
                                let pvy = vy.baseAddress!, pm = mass.baseAddress!, fx = held.fx, fy = held.fy
                                world.forEachRangeBetweenSteps(n, minimum: Self.itemsPerThread) { range in
                                    world.readMotion(
                                        of: ids, range, x: px, y: py, vx: pvx, vy: pvy, mass: pm, fx: fx, fy: fy)
                                }
                            }
                        }
                    }
                }
            }
        }
        stamp = now
    }

    #if DEBUG
        /// Debug builds: a reused read must equal a fresh one — else some code changed the items'
        /// motion in the force pass without calling `invalidateSharedMotion()`.
        private func verify(against world: World) {
            let n = bodies.count
            var fx = [Double](repeating: 0, count: n), fy = fx, fvx = fx, fvy = fx, fm = fx
            bodies.withUnsafeBufferPointer { ids in
                world.readMotion(of: ids, 0..<n, x: &fx, y: &fy, vx: &fvx, vy: &fvy, mass: &fm)
            }
            for (read, kept) in zip([fx, fy, fvx, fvy, fm], [x, y, vx, vy, mass]) {
                precondition(
                    read.map(\.bitPattern) == kept.map(\.bitPattern),
                    "FieldCrowd: the items' motion changed in the force pass without invalidateSharedMotion()")
            }
        }
    #endif

    /// Adds `forces[k]` (mass·pt/s²) to body k's force for the next step
    /// (`World.applyForcesToCenters(of:_:_:)`), in ranges on the world's threads (see `inRanges`).
    func applyForces(_ forces: [Vec2], in world: World) {
        bodies.withUnsafeBufferPointer { ids in
            forces.withUnsafeBufferPointer { forces in
                inRanges(min(ids.count, forces.count), of: world) { world.applyForcesToCenters(of: ids, forces, $0) }
            }
        }
    }

    /// Whether the crowd can hold its fields' forces for one store (`hold()`): when no body
    /// appears twice (two entries of one body would each start from its force and overwrite the
    /// other's).
    var canHoldForces: Bool { bodiesAreDistinct }

    /// The columns a field adds its forces to (and flags the sleep timers to restart in), which
    /// `storeForces` then gives the bodies, once for all the fields that share this read. Needs a
    /// read of this force pass and `canHoldForces`.
    func hold() -> HeldColumns {
        precondition(canHoldForces && stamp != nil, "FieldCrowd.hold: no read to add to")
        holdsForces = true
        return held!
    }

    /// Gives the bodies the forces the crowd holds and restarts the flagged sleep timers (see
    /// `hold()`), in ranges on the world's threads; then drops the read: what comes next (another
    /// behaviour) may add to the bodies' forces, which the held ones would no longer include.
    func storeForces(in world: World) {
        guard holdsForces, let held else { return }
        holdsForces = false
        stamp = nil
        bodies.withUnsafeBufferPointer { ids in
            inRanges(ids.count, of: world) {
                world.storeForces(of: ids, fx: held.fx, fy: held.fy, restartingTimers: held.restart, $0)
            }
        }
    }

    /// Runs `body` over ranges covering `0..<count` (the crowd's items, or parts of them): on the
    /// world's threads (`minimum` at least each) when no body appears twice, so that each range
    /// writes only its own bodies; else as one range on this thread.
    func inRanges(_ count: Int, minimum: Int = itemsPerThread, of world: World,
                  _ body: @escaping (Range<Int>) -> Void) {
        if bodiesAreDistinct {
            world.forEachRangeBetweenSteps(count, minimum: minimum, body)
        } else if count > 0 {
            body(0..<count)
        }
    }

    /// The crowd a field with `bodies` should use: that of a field among `fields` with the same
    /// bodies in the same order, else a new one.
    static func shared(for bodies: [BodyID], among fields: [FieldBehavior]) -> FieldCrowd {
        for field in fields {
            if let crowd = field.crowd, crowd.bodies == bodies { return crowd }
        }
        return FieldCrowd(bodies: bodies)
    }
}

/// The forces (mass·pt/s²) a crowd holds for its bodies, with flags, one entry per item (see
/// `FieldCrowd.hold()`). Each force starts as the body's own when the crowd read it, and the fields
/// sharing the read add theirs in turn, in the engine's single precision and in the fields'
/// order: so the bodies end with the very forces that adding each field's in turn gave them, for
/// one pass over the engine's scattered body records where each field made one.
struct HeldColumns {
    let fx: UnsafeMutablePointer<Float>, fy: UnsafeMutablePointer<Float>
    /// Items whose body's sleep timer the store restarts (a field that keeps its items awake); the
    /// store clears them.
    let restart: UnsafeMutablePointer<Bool>
    /// Items whose force from the field being evaluated came out non-finite or too large: the
    /// field reports and clears them.
    let rejected: UnsafeMutablePointer<Bool>

    init(count: Int) {
        let n = max(count, 1)
        fx = .allocate(capacity: n); fx.initialize(repeating: 0, count: n)
        fy = .allocate(capacity: n); fy.initialize(repeating: 0, count: n)
        restart = .allocate(capacity: n); restart.initialize(repeating: false, count: n)
        rejected = .allocate(capacity: n); rejected.initialize(repeating: false, count: n)
    }

    func deallocate() {
        fx.deallocate(); fy.deallocate(); restart.deallocate(); rejected.deallocate()
    }

    /// Adds force `f` of item `k`, as the engine adds a force to a body: a zero one changes
    /// nothing; a non-finite one (or one whose acceleration is out of `fits`) is not added, and
    /// flagged for the report. Returns whether it was flagged.
    @inline(__always)
    func add(_ k: Int, _ f: Vec2, fits: Bool) -> Bool {
        guard fits, f.isFinite else { rejected[k] = true; return true }
        guard f.x != 0 || f.y != 0 else { return false }
        fx[k] += f.x
        fy[k] += f.y
        return false
    }
}
