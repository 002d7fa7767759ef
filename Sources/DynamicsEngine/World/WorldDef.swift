/// World settings. Defaults are Box2D v3's, scaled by `lengthUnitsPerMeter` so that the engine can
/// work directly in UIKit points (100 pt per metre, the scale of UIKit's own engine).
package struct WorldDef: Sendable {
    /// Gravity (pt/s²). Default (0, 1000): UIKit's gravity of magnitude 1, y down.
    package var gravity = Vec2(0, 1000)
    /// Length units per metre; every tolerance below is given in metres and scaled by it. Default 100.
    package var lengthUnitsPerMeter: Float = 100
    /// Let islands of bodies at rest fall asleep. Default true.
    package var enableSleep = true
    /// Sweep fast bodies against static and kinematic shapes. Default true.
    package var enableContinuous = true
    /// Contact stiffness (Hz); capped at an eighth of the sub-step rate (Box2D v3), and doubled against static bodies. Default 30.
    package var contactHertz: Float = 30
    /// Contact damping ratio. Default 10: stiff and heavily damped, so stacks do not bounce.
    package var contactDampingRatio: Float = 10
    /// Joint stiffness for position errors (Hz). Default 60.
    package var jointHertz: Float = 60
    /// Joint damping ratio. Default 2 (Box2D v3.1).
    package var jointDampingRatio: Float = 2
    /// Largest speed at which overlap is pushed out (m/s). Default 3.
    package var maxContactPushSpeedMeters: Float = 3
    /// Approach speed below which restitution is ignored (m/s). Default 1.
    package var restitutionThresholdMeters: Float = 1
    /// Speed cap (m/s). Default 400.
    package var maxLinearSpeedMeters: Float = 400
    /// The most a body may turn in one step (rad): its angular speed is capped at this over the
    /// step's duration after every sub-step's solve. Continuous collision sweeps a body's pose
    /// from the step's start to its end, and a body that turns further than this in a step is no
    /// longer where such a sweep has it: a 12 pt square struck at its corner spun 10 rad in one
    /// step and passed through the item it struck without overlapping it at either end.
    /// Default infinity: no cap, so the engine's benchmark scenes keep their results (Box2D v3
    /// caps at π/4, `B2_MAX_ROTATION`, 47 rad/s at 60 Hz, and sweeps no body against moving ones
    /// unless flagged). ``stiffJoints``, the animator's settings, use π/2, UIKit's engine's cap
    /// (Box2D 2.x's `b2_maxRotation`: 94 rad/s at 60 Hz, 15 turns a second), which its bullets need.
    package var maxRotationPerStep: Float = .infinity
    /// Sleep speed (m/s): bodies slower than this for `timeToSleep` may sleep. Default 0.05.
    package var sleepThresholdMeters: Float = 0.05
    /// Seconds of rest before an island sleeps. Default 0.5.
    package var timeToSleep: Float = 0.5
    /// Joint passes per sub-step, in both the solve and the relax pass. Default 1 (Box2D v3).
    package var jointIterations = 1
    /// Cap on `jointHertz` as a fraction of the sub-step rate. Default 0.25 (Box2D v3).
    package var jointHertzLimit: Float = 0.25
    /// Solve the two points of each contact manifold with a static body together, as one 2 × 2
    /// complementarity problem (Box2D 2.x's block solver, which UIKit's engine used), instead of
    /// one after the other (Box2D v3). The block solve lands a flat face flat: solved in turn, the
    /// first point's share turns the body by a few thousandths of a radian, which beside a wall is
    /// enough to make a frictionless item slide away for good. Contacts between moving bodies stay
    /// sequential (see `ContactBlock`).
    /// Default false (Box2D v3); ``stiffJoints``, the animator's settings, turn it on.
    package var blockSolve = false
    /// Treat static segments that share an end as one smooth outline: a contact that a segment's
    /// end makes only because the segment is taken alone (its normal leaning past an end where a
    /// neighbour continues flat or bends away) is left to the neighbour, as Box2D's chain shapes
    /// do with their ghost vertices. Without it a box sliding along a floor of segments snags on
    /// the joints (at 20 and 60 pt/s across ten 40 pt segments, it stopped at the first).
    /// Default false (Box2D v3's two-sided segments); ``stiffJoints`` turns it on.
    package var smoothSegmentJoins = false
    /// Sweep every body whose step carries it further than the speculative distance (4 linear
    /// slops, 2 pt), not only those that move half their inner size (Box2D v3's rule). Between the
    /// two a body meets a wall with no contact point yet (none is made further out than the
    /// speculative distance) and sinks up to a step's travel into it before being pushed out: a
    /// card thrown into a wall at 290 pt/s sank 2.1 pt for six frames. UIKit's engine, a Box2D
    /// 2.x fork, computes the time of impact of every moving body against static ones, so on iOS
    /// it stays out. The sweep is the swept inner circle of `solveContinuous`, which stops at the
    /// impact and leaves the solver a speculative contact a slop away, and, for every body swept,
    /// its outline turning as it does where that would end the step more than a slop inside a
    /// static or kinematic shape (`outlineImpact`: a card meeting a wall corner first at 600 pt/s
    /// went 8.7 pt in).
    /// Default false (Box2D v3); ``stiffJoints``, the animator's settings, turn it on.
    package var sweepPastSpeculativeReach = false
    /// Bullets, chosen by speed and size: after the sweeps against static and kinematic shapes,
    /// every body whose step carried it more than half its inner size is swept again, whole,
    /// against the other dynamic bodies as they moved in the step, and stops where it would first
    /// touch one; one that still ends the step inside another deeper than the speculative distance
    /// is pushed out (`World.solveBullets`). Box2D v3 does the sweep for bodies flagged as bullets;
    /// UIKit has no such flag, so the animator chooses them the way Box2D chooses bodies for its
    /// sweeps against static shapes. Without it a card flicked at 5 000 pt/s (83 pt a step)
    /// passes through a 10 pt item: 112 of 200 throws did (`BulletTests`); with it, none of 2 000.
    /// Default false (Box2D v3, where bullets are flagged by hand); ``stiffJoints``, the
    /// animator's settings, turn it on.
    package var sweepBulletsAgainstBodies = false
    /// Recycle the manifolds of contacts whose bodies have joints (Box2D v3.2's contact
    /// recycling: while a pair's relative pose has barely changed, its normal and anchors are kept
    /// and only the separations follow the motion). Off, such contacts are computed afresh every
    /// step. A figure whose pinned parts also touch each other and the floor (a ragdoll) fell into
    /// a limit cycle with kept manifolds: parts flipping by tenths of a point from one step to
    /// the next at 10–35 pt/s, never asleep. Paused after 12 s, of 40 ragdoll tumbles (spins
    /// −5…5 rad/s) with the animator's other settings: 140 Hz ζ 4 joints 35 → 40, 120 Hz ζ 2
    /// 33 → 40, 180 Hz ζ 5 37 → 40 (at 240 Hz ζ 2, 14 → 11: there the joints themselves ring).
    /// Default true (Box2D v3); ``stiffJoints``, the animator's settings, turn it off.
    package var recycleJointedContacts = true
    /// Threads that share a step (the caller included). Results are bit-identical for any count.
    /// Default 1.
    package var workerCount = 1
    /// Grid cell size (pt); nil picks it from the typical shape size. Default nil.
    package var cellSize: Float? = nil
    /// Run the validation walk after every step (tests); its findings are in
    /// `World.validationErrors` after each step. Default false.
    package var validate = false
    package init() {}

    /// Box2D v3's settings with stiff joints, the block solve of contact points and smooth
    /// joins between segments: the rigid rods, pins and welds of UIKit Dynamics, items that land
    /// flat, and outlines without bumps at their joints.
    ///
    /// A soft joint of frequency f stretches under a load F by F / (m·(2πf)²), and Gauss–Seidel
    /// needs several passes to carry a load along a chain, so at Box2D's defaults (60 Hz, one pass)
    /// a hanging chain of 20 pt links stretches by 1–8 % of a link. UIKit's engine (a Box2D 2.x fork)
    /// held its attachments with extra iterations; this preset does the same with 6 joint passes
    /// per sub-step and 140 Hz joints with damping ratio 4: the chain then holds within 1 %.
    /// Joints cost six times as much; contacts are unchanged.
    ///
    /// Why 140 Hz and not the sub-step rate (240 Hz, the stiffest a soft step allows): figures whose
    /// pinned parts also touch each other and the floor (a ragdoll, a chain folded onto itself)
    /// then kept a limit cycle, parts flipping by ±0.1–0.3 pt from one step to the next at
    /// 5–30 pt/s, and never slept. Measured on 40 ragdoll drops (spins −5…5 rad/s), five chain
    /// setups and the 20-link chain's stretch after 3 s of swinging (bound 0.2 pt):
    ///
    /// | joints | ragdolls that pause | chains that pause | worst stretch |
    /// | --- | ---: | ---: | ---: |
    /// | 240 Hz, ζ 2 | 8 / 40 | 5 / 5 | 0.12 pt |
    /// | 140 Hz, ζ 2 | 40 / 40 | 4 / 5 | 0.15 pt |
    /// | 120 Hz, ζ 2 | 39 / 40 | 5 / 5 | 0.23 pt |
    /// | 180 Hz, ζ 5 | 40 / 40 | 5 / 5 | 0.21 pt |
    /// | 140 Hz, ζ 5 | 40 / 40 | 5 / 5 | 0.18 pt |
    /// | 140 Hz, ζ 4 | 40 / 40 | 5 / 5 | 0.17 pt |
    ///
    /// The neighbours of the choice (130–150 Hz, ζ 4–7) pause 39–40 of the 40 ragdolls.
    package static var stiffJoints: WorldDef {
        var d = WorldDef()
        d.jointIterations = 6
        d.jointHertz = 140
        d.jointDampingRatio = 4
        d.jointHertzLimit = 1
        d.blockSolve = true
        d.smoothSegmentJoins = true
        d.sweepPastSpeculativeReach = true
        d.recycleJointedContacts = false
        d.maxRotationPerStep = 0.5 * .pi
        d.sweepBulletsAgainstBodies = true
        return d
    }
}
