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

    /// Drops the read: the next field to use the crowd reads the engine again.
    func invalidate() { stamp = nil }

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
        let n = bodies.count
        if x.count != n {
            x = Array(repeating: 0, count: n); y = x; vx = x; vy = x; mass = x
        }
        // Straight into the columns, in ranges on the world's threads (each writes its own rows).
        bodies.withUnsafeBufferPointer { ids in
            x.withUnsafeMutableBufferPointer { x in
                y.withUnsafeMutableBufferPointer { y in
                    vx.withUnsafeMutableBufferPointer { vx in
                        vy.withUnsafeMutableBufferPointer { vy in
                            mass.withUnsafeMutableBufferPointer { mass in
                                let px = x.baseAddress!, py = y.baseAddress!, pvx = vx.baseAddress!
                                let pvy = vy.baseAddress!, pm = mass.baseAddress!
                                world.forEachRangeBetweenSteps(n, minimum: Self.itemsPerThread) { range in
                                    world.readMotion(of: ids, range, x: px, y: py, vx: pvx, vy: pvy, mass: pm)
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
