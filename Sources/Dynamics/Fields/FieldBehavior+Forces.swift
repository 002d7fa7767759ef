import DynamicsEngine
import Foundation

// The per-step evaluation of a field.
//
// Why it is shaped so: a field may act on ten thousand items, so the step reads the field's
// properties once into a `FieldLaw` (a plain struct), reads the items' motion once for every field
// on the same items (`FieldCrowd`), and runs the law over four items at a time in SIMD lanes
// (`FieldLaw+Lanes.swift`) with an allocation-free region test — no allocation, no retain, no
// dictionary look-up, no existential or closure call per item (except the custom kind's block,
// which is the point of that kind, and which gets a loop of its own). The fields on one crowd add
// their forces to columns the crowd holds, and the bodies get them in one store (`FieldCrowd.hold()`),
// with the sleep timers a noise field keeps running: one pass over the engine's body records for
// all the fields, where each field made one (and the noise field a second). Laws that change the velocity in
// proportion to a power of itself (drag, magnetic) are applied as the exact solution over the
// step, so they stay stable for any strength; position-dependent laws are sampled slightly ahead
// (see `FieldLaw.lead`), and the two central conservative laws (radial gravity, electric) are
// then corrected so that the step neither gains nor loses their energy (see
// `FieldLaw.conservingEnergy`).
//
// Measured (release, the shared 2-core machine, issue 27.4): the ui_fields benchmark — 10 000 items
// under a vortex, a radial gravity and a noise field, each with a region — spends 0.87 ms a step in
// the three fields (25 % of its 3.5 ms), down from 1.43 ms when each field read every body itself
// and ran its law item by item; ≈ 0.03 µs per item per field.
//
// Units. The laws are PhysicsKit's, the engine under UIKit's fields (and SpriteKit's), which works
// in metres at 100 pt per metre: a strength of 1 is 1 m/s² = 100 pt/s² for the acceleration laws
// and 1 N = 100 mass·pt/s² for the force laws. Sources: the charon project's measurements and
// reading of UIKitCore and PhysicsKit (kern0x1b/charon,
// `packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md`, §10.2, §10.3, §M7), checked against
// what public apps do with their numbers (the DocC article "Fields and regions" lists them).

extension FieldBehavior {
    /// Whether the field keeps its items in its region awake: whether it would move an item at
    /// rest wherever the item lies, and keeps doing so — a noise field whose pattern changes
    /// (``animationSpeed`` ≠ 0, ``strength`` ≠ 0) and a velocity field with a velocity to set
    /// (``direction`` ≠ 0).
    ///
    /// Why: the engine puts an island to sleep once it has been slower than the sleep speed for
    /// half a second, and a sleeping item feels no field. An item resting where the noise is weak
    /// (8 of 24 grid positions in issue 25) would then sleep for good, and the animator pause,
    /// although the pattern moves on and would push it a moment later; an item carried by a
    /// velocity field slower than the sleep speed would stop. Box2D v3 wakes a body that a force
    /// is applied to (`b2Body_ApplyForce` with `wake`); these fields do so, and restart the sleep
    /// timer of the items they push, so the animator keeps running while they act — as UIKit's
    /// keeps running under its noise fields. Fields whose law does not change in time (gravity,
    /// springs, charges, a frozen noise field) let items rest where the forces balance (on the
    /// floor): the engine keeps an island awake while unbalanced forces push it (see
    /// `World.updateSleep`). A turbulence field pushes only moving items (its force grows with the
    /// square of the speed, and is 0 at rest), so it keeps nothing awake by itself.
    var keepsItemsAwake: Bool {
        switch kind {
        case .noise: return storedStrength != 0 && storedAnimationSpeed != 0
        case .velocity: return storedDirection != .zero
        default: return false
        }
    }

    /// Runs the field for one step: a force on every awake item of the field inside its region.
    ///
    /// Reads the items' motion through the field's ``FieldCrowd`` — once per step for all the
    /// fields on the same items — and evaluates the law over four items at a time
    /// (`FieldLaw+Lanes.swift`), bit for bit as it does item by item (`evaluatesInLanes` false,
    /// which also gives each field a read of its own and applies its forces at once: the
    /// reference the lanes and the held forces are tested against).
    func applyFieldForces(in animator: DynamicAnimator, dt: TimeInterval) {
        defer {
            if kind == .noise || kind == .turbulence {
                let next = noiseTime + Double(storedAnimationSpeed) * dt
                if next.isFinite { noiseTime = next }   // at 10⁶ Hz that takes 10³⁰² s; never wrap to ∞
            }
        }
        guard !bodies.isEmpty else { return }
        if let block = evaluationBlock {
            animator.storeFieldForces()   // the block's forces go to the bodies directly
            // The block may change anything, the items' motion too.
            if applyCustomForces(block, in: animator, dt: dt) { animator.invalidateSharedMotion() }
            return
        }
        let world = animator.world
        let law = FieldLaw(self, substeps: animator.substeps, dt: dt)
        // Local copies: a diagnostic handler called below may make the animator synchronise,
        // which replaces these.
        let bodies = self.bodies
        let records = self.records
        let crowd: FieldCrowd
        if !evaluatesInLanes {
            crowd = FieldCrowd(bodies: bodies)   // a read of its own, not kept
        } else if let shared = self.crowd, shared.bodies == bodies { crowd = shared } else {
            crowd = FieldCrowd(bodies: bodies)
            self.crowd = crowd
        }
        // Another crowd's held forces may be for these bodies too: the read must see them.
        if animator.crowdHoldingForces !== crowd { animator.storeFieldForces() }
        crowd.refresh(from: world)
        // Held by the crowd when its fields share it: the forces are stored once for all of them
        // (see `FieldCrowd.hold()`), and so are the sleep timers this field keeps running — unless
        // an item might sleep, which only the separate pass wakes.
        let holds = crowd === self.crowd && crowd.canHoldForces
        let restarts = keepsItemsAwake && holds && !world.hasSleepingBody
        if keepsItemsAwake && !restarts && wakeItemsInRegion(crowd, world, animator) {
            // Woken items (and their islands, maybe in other crowds) take forces now: read again.
            animator.invalidateSharedMotion()
            crowd.refresh(from: world)
        }
        if holds {
            let held = crowd.hold()
            animator.crowdHoldingForces = crowd
            let writer = ForceWriter(forces: nil, held: held, restarts: restarts)
            guard evaluate(law, from: crowd, in: world, writer) else { return }
            // Reported after the forces are in: a diagnostic handler may change the world (and the
            // report stores the held forces before it calls one).
            var reported = false
            for k in records.indices where held.rejected[k] {
                held.rejected[k] = false
                reported = reportRejected(records[k], in: animator) || reported
            }
            if reported { animator.invalidateSharedMotion() }
            return
        }
        var forces: [Vec2] = []
        swap(&forces, &forceScratch)
        defer { swap(&forces, &forceScratch) }
        let n = crowd.bodies.count
        forces.removeAll(keepingCapacity: true)
        forces.append(contentsOf: repeatElement(.zero, count: n))
        let found = forces.withUnsafeMutableBufferPointer {
            evaluate(law, from: crowd, in: world, ForceWriter(forces: $0.baseAddress!, held: nil, restarts: false))
        }
        crowd.applyForces(forces, in: world)
        guard found else { return }
        // Reported after the forces are in: a diagnostic handler may change the world.
        var reported = false
        for k in forces.indices where !(forces[k].x.isFinite && forces[k].y.isFinite) {
            reported = reportRejected(records[k], in: animator) || reported
        }
        if reported { animator.invalidateSharedMotion() }
    }

    /// Reports (once) that the field's force on `record`'s item was not finite or too large;
    /// returns whether it did (the diagnostic handler, which may change the items' motion, ran).
    private func reportRejected(_ record: ItemRecord, in animator: DynamicAnimator) -> Bool {
        let message = "FieldBehavior (\(kind)): a non-finite or too large acceleration of the "
            + "\(itemLabel(record.item)) was ignored for the steps where that happens."
        guard animator.rememberReported(message) else { return false }
        animator.report(.nonFiniteForce(item: record.id), message)
        return true
    }

    /// Keeps every item in the field's region from falling asleep while it acts, and wakes the
    /// sleeping ones (with their islands) so they feel it this step (see `keepsItemsAwake`).
    /// Returns whether any item woke.
    ///
    /// One pass: the engine's wake call on an awake body only restarts its sleep timer, so waking
    /// the sleepers before the forces and restarting the others' timers after them (as this did in
    /// two passes) leaves the world as this does.
    private func wakeItemsInRegion(_ crowd: FieldCrowd, _ world: World, _ animator: DynamicAnimator) -> Bool {
        let test = RegionLanes(regionIsInfinite ? .infinite : storedRegion)
        let px = Double(storedPosition.x), py = Double(storedPosition.y)
        let x = crowd.x, y = crowd.y
        var inside: [Bool] = []
        swap(&inside, &regionScratch)
        defer { swap(&inside, &regionScratch) }
        inside.removeAll(keepingCapacity: true)
        inside.append(contentsOf: repeatElement(false, count: x.count))
        let n = min(x.count, y.count, crowd.bodies.count)
        // In parts on the world's threads: each tests its own items and restarts their bodies'
        // sleep timers; the sleepers, if any, are woken after, in order, by the serial pass
        // (which restarts the others' timers again, to the same 0).
        let size = FieldCrowd.itemsPerThread
        let parts = (n + size - 1) / size
        var sleepers = [Bool](repeating: false, count: parts)
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                crowd.bodies.withUnsafeBufferPointer { ids in
                    inside.withUnsafeMutableBufferPointer { inside in
                        sleepers.withUnsafeMutableBufferPointer { sleepers in
                            let xs = x.baseAddress!, ys = y.baseAddress!, flags = inside.baseAddress!
                            let found = sleepers.baseAddress!
                            crowd.inRanges(parts, minimum: 1, of: world) { range in
                                for part in range {
                                    let items = (part * size)..<min(n, (part + 1) * size)
                                    for k in items { flags[k] = test.contains(xs[k] - px, ys[k] - py) }
                                    found[part] = world.restartSleepTimers(
                                        ids, where: UnsafeBufferPointer(start: flags, count: n), items)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard sleepers.contains(true) else { return false }
        animator.storeFieldForces()   // waking changes the awake list the store checks
        return world.keepAwake(crowd.bodies, where: inside)
    }

    /// Gives `writer` the field's force (mass·pt/s²) on each of the crowd's items that takes one
    /// (awake, not anchored, inside the region, a non-zero acceleration), or flags the item where
    /// the acceleration is not finite or above `FieldLaw.accelerationLimit` (the engine skips
    /// those; the caller reports them). With `writer.restarts`, flags every item inside the region
    /// for its sleep timer to restart. Returns whether an item was flagged as rejected.
    ///
    /// The items are split over the world's threads, each item's force from its own motion alone
    /// (the law, the region and the columns are values, only read), so every thread count gives
    /// the same forces; within a range, four items at a time, then the rest one by one.
    func evaluate(_ law: FieldLaw, from crowd: FieldCrowd, in world: World, _ writer: ForceWriter) -> Bool {
        let n = crowd.bodies.count
        let test = RegionLanes(regionIsInfinite ? .infinite : storedRegion)
        let px = Double(storedPosition.x), py = Double(storedPosition.y)
        let limit = FieldLaw.accelerationLimit * FieldLaw.accelerationLimit
        let usesCharge = law.usesCharge
        let charges = usesCharge ? self.charges.map { Double($0) } : []
        let x = crowd.x, y = crowd.y, vx = crowd.vx, vy = crowd.vy, mass = crowd.mass
        let lanes = evaluatesInLanes
        let minimum = FieldLaw.itemsPerThread
        // One flag a range, at its start's index over `minimum`: the ranges are `minimum` items
        // long at least, so no two share one.
        var found = [Bool](repeating: false, count: n / minimum + 1)
        x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in
        vx.withUnsafeBufferPointer { vx in vy.withUnsafeBufferPointer { vy in
        mass.withUnsafeBufferPointer { mass in charges.withUnsafeBufferPointer { charges in
        found.withUnsafeMutableBufferPointer { found in
            let columns = FieldColumns(x: x.baseAddress!, y: y.baseAddress!,
                                       vx: vx.baseAddress!, vy: vy.baseAddress!,
                                       mass: mass.baseAddress!, charge: charges.baseAddress)
            let flags = found.baseAddress!
            world.forEachRangeBetweenSteps(n, minimum: minimum) { range in
                var memo = CoreRadiusMemo()
                var rejected = false
                var k = range.lowerBound
                let width = FieldLanes.scalarCount
                while lanes && k + width <= range.upperBound {
                    defer { k += width }
                    let m = columns.lanes(columns.mass, k)
                    var active = m .> 0
                    // the timers of every item inside, as `wakeItemsInRegion` restarts them
                    guard writer.restarts || any(active) else { continue }
                    let rx = columns.lanes(columns.x, k) - px, ry = columns.lanes(columns.y, k) - py
                    let inside = test.contains(rx, ry)
                    if writer.restarts {
                        for lane in 0..<width where inside[lane] { writer.held!.restart[k + lane] = true }
                    }
                    active .&= inside
                    guard any(active) else { continue }
                    let q = usesCharge ? columns.lanes(columns.charge!, k) : .zero
                    let vx = columns.lanes(columns.vx, k), vy = columns.lanes(columns.vy, k)
                    let (ax, ay) = law.accelerations(rx: rx, ry: ry, vx: vx, vy: vy, mass: m, charge: q, memo: &memo)
                    let acts = active .& ((ax .!= 0) .| (ay .!= 0))
                    guard any(acts) else { continue }
                    let fits = ax * ax + ay * ay .<= limit
                    for lane in 0..<width where acts[lane] {
                        let f = Vec2(Float(m[lane] * ax[lane]), Float(m[lane] * ay[lane]))
                        rejected = writer.put(k + lane, f, fits: fits[lane]) || rejected
                    }
                }
                for k in k..<range.upperBound {
                    let m = columns.mass[k]
                    guard writer.restarts || m > 0 else { continue }
                    let rx = columns.x[k] - px, ry = columns.y[k] - py
                    let inside = test.contains(rx, ry)
                    if writer.restarts && inside { writer.held!.restart[k] = true }
                    guard m > 0, inside else { continue }
                    let q = usesCharge ? columns.charge![k] : 0
                    let (ax, ay) = law.acceleration(rx: rx, ry: ry, vx: columns.vx[k], vy: columns.vy[k],
                                                    mass: m, charge: q)
                    guard ax != 0 || ay != 0 else { continue }
                    let f = Vec2(Float(m * ax), Float(m * ay))
                    rejected = writer.put(k, f, fits: ax * ax + ay * ay <= limit) || rejected
                }
                if rejected { flags[range.lowerBound / minimum] = true }
            }
        }
        }}}}}}
        return found.contains(true)
    }

    /// The custom kind's loop: the block is called with the item's state in the animator's space
    /// and the animator's clock at the end of this step (see ``FieldBehavior/EvaluationBlock``).
    /// Returns whether the block was called.
    private func applyCustomForces(_ block: EvaluationBlock, in animator: DynamicAnimator, dt: TimeInterval) -> Bool {
        let region = storedRegion
        let everywhere = regionIsInfinite
        let px = Double(storedPosition.x), py = Double(storedPosition.y)
        let limit = FieldLaw.accelerationLimit * FieldLaw.accelerationLimit
        // The simulation time after this step, as UIKit passes it (its world's clock after the
        // sub-step): the elapsed time grows by Δt at the end of a step that runs.
        let time = animator.elapsedTime + (animator.running ? dt : 0)
        // The block may change the field (even its items): iterate over this step's snapshot.
        let targets = records
        var called = false
        for r in targets {
            guard animator.isMovable(r) else { continue }
            let m = animator.mass(of: r)
            guard m > 0 else { continue }
            let c = animator.center(of: r)
            if !everywhere && !region.contains(x: Double(c.x) - px, y: Double(c.y) - py) { continue }
            let v = animator.velocity(of: r)
            called = true
            let f = block(self, c, CGVector(dx: v.x, dy: v.y), m, animator.charge(of: r), time)
            let ax = Double(f.dx) / Double(m), ay = Double(f.dy) / Double(m)
            guard ax * ax + ay * ay <= limit else {
                animator.reportOnce(.nonFiniteForce(item: r.id),
                                    "FieldBehavior: the evaluation block returned a non-finite or too large force for the \(itemLabel(r.item)); it is ignored for the steps where that happens.")
                continue
            }
            guard f.dx != 0 || f.dy != 0 else { continue }
            animator.applyForce(f, to: r)
        }
        return called
    }
}

/// A field's law, with the field's properties read once for a step.
struct FieldLaw {
    // MARK: Units (see the factories' documentation)

    /// Points per metre in PhysicsKit, UIKit's field engine: strength 1 is 1 m/s² = 100 pt/s² for
    /// the acceleration laws and 1 N = 100 mass·pt/s² for the force laws.
    static var metre: Double { Double(UIKitUnits.pointsPerMetre) }
    /// The smallest distance the falloff sees, in pt (keeps the factor finite at the position).
    static var distanceFloor: Double { 0.001 }
    /// Scales n·∇n of ``SimplexNoise`` so that its root mean square (0.70) is that of Gustavson's
    /// `srdnoise3`, which iOS uses (measured over 10⁵ random points each; both maxima ≈ 2–3).
    static var noiseForceScale: Double { 0.73 }
    /// The bound on (ω·Δt)² for the core of a central field: the core radius is the smallest one
    /// at which the field's stiffness, (1 + |falloff|)·|a(r)|/r, is at most this over Δt².
    static var coreStiffness: Double { 0.25 }
    /// Larger accelerations (pt/s²) are treated as non-finite: they could overflow the engine's floats.
    static var accelerationLimit: Double { 1e12 }
    /// The fewest items a thread evaluates in a step (a built-in law is tens of nanoseconds an item;
    /// fewer than this cost more to hand to another thread than they take).
    static var itemsPerThread: Int { 512 }

    let kind: FieldBehavior.Kind
    let strength: Double
    let falloff: Double
    /// The distance (pt) below which the falloff stops growing: max(minimumRadius, 0.001 pt).
    let minimumDistance: Double
    let dx: Double, dy: Double
    let noiseFrequency: Double
    let noiseTime: Double
    /// cos and sin of the noise gradients' rotation (the noise time, in radians, as in iOS).
    let noiseCosine: Double, noiseSine: Double
    let noiseSeed: UInt32
    let dt: Double
    /// How far ahead (s) position-dependent laws are sampled: γ·Δt with γ = (N − 1)/(2N).
    ///
    /// Why: the engine integrates a step-constant acceleration a over N sub-steps of semi-implicit
    /// Euler, so x gains Δt·v + β·Δt²·a with β = (N + 1)/(2N). For a linear restoring force sampled
    /// at x + γΔt·v, the step's matrix has determinant 1 + ω²Δt²(1 − β − γ): it preserves phase-space
    /// area — and so the amplitude of an undamped spring or the energy of an orbit — exactly when
    /// γ = 1 − β = (N − 1)/(2N). Sampling at the step's start (γ = 0) would gain ~0.4 % energy a
    /// step at ω = 2π rad/s.
    let lead: Double
    /// β·Δt² (s²): how far a step-constant acceleration of 1 pt/s² moves an item in one step.
    let drift: Double
    /// The radial gravity field's core radius (pt), from its strength; see `coreRadius`.
    private(set) var radialCore = 0.0
    /// Whether the law reads the charge (electric and magnetic fields).
    var usesCharge: Bool { kind == .electric || kind == .magnetic }

    init(_ field: FieldBehavior, substeps: Int, dt: TimeInterval) {
        kind = field.kind
        strength = Double(field.storedStrength)
        falloff = Double(field.storedFalloff)
        minimumDistance = max(Double(field.storedMinimumRadius), Self.distanceFloor)
        dx = Double(field.storedDirection.dx)
        dy = Double(field.storedDirection.dy)
        noiseFrequency = field.noiseFrequency
        noiseTime = field.noiseTime
        noiseCosine = cos(field.noiseTime)
        noiseSine = sin(field.noiseTime)
        noiseSeed = field.noiseSeed
        self.dt = dt
        let n = Double(max(substeps, 1))
        lead = (n - 1) / (2 * n) * dt
        drift = (n + 1) / (2 * n) * dt * dt
        if kind == .radialGravity {
            radialCore = coreRadius(Self.metre * abs(strength))
        }
    }

    /// The falloff factor at the distance `d` (pt): (max(d, minimumRadius, 0.001) / 100 pt)^(−falloff)
    /// — PhysicsKit's `pow(max(r, minimumRadius), −falloff)` with r in metres.
    @inline(__always)
    func fall(_ d: Double) -> Double {
        if falloff == 0 { return 1 }
        let ratio = max(d, minimumDistance) / Self.metre
        if falloff == 2 { return 1 / (ratio * ratio) }
        if falloff == 1 { return 1 / ratio }
        if falloff == -1 { return ratio }
        return pow(ratio, -falloff)
    }

    // MARK: Central fields and their core

    /// The radius (pt) of the core inside which a central field of magnitude `scale`·fall(d)
    /// (pt/s²) ramps linearly to zero at its center, instead of growing without bound or flipping
    /// direction there: the smallest radius r with (1 + |falloff|)·scale·fall(r)/r·Δt² ≤
    /// `coreStiffness`, so that the step resolves the field everywhere (ω·Δt ≤ 0.5). 0 when no core
    /// is needed.
    ///
    /// Why: with a falloff of 2 and the default minimum radius, the pull near the center of a
    /// "sun" is unbounded; a step that passes an item through it samples a huge force on one side
    /// only and flings the item away with energy it never had (UIKit does: charon measured an item
    /// released at rest 500 pt from a radial field of strength 200 at 2 790 pt from it a second
    /// later, §10.7). Inside the core the field is that of a uniform ball (a Rankine vortex's solid
    /// core for the vortex field): bounded, smooth at the center, and exactly UIKit's field outside.
    func coreRadius(_ scale: Double) -> Double {
        guard scale > 0, scale.isFinite else { return 0 }
        let stiffness = (1 + abs(falloff)) * scale * dt * dt / Self.coreStiffness
        // Inside the minimum radius the magnitude is constant: the core is where that constant
        // over r reaches the bound.
        let clamped = stiffness * fall(minimumDistance)
        if clamped <= minimumDistance { return clamped }
        // Beyond it the magnitude is scale·(r/100)^(−k); its stiffness falls with r only for k > −1.
        guard falloff > -1 else { return minimumDistance }
        let core: Double
        switch falloff {  // r = (stiffness·100^k)^(1/(k + 1)); the common falloffs without pow
        case 0: core = stiffness
        case 1: core = (stiffness * Self.metre).squareRoot()
        case 2: core = cbrt(stiffness * Self.metre * Self.metre)
        default: core = pow(stiffness * pow(Self.metre, falloff), 1 / (falloff + 1))
        }
        return core.isFinite ? max(core, minimumDistance) : minimumDistance
    }

    /// The factor f such that f·**p** is the central field's vector of magnitude fall(d) (times
    /// the ramp inside the `core`) along **p** = (`x`, `y`), d = |**p**|.
    @inline(__always)
    func central(_ x: Double, _ y: Double, core: Double) -> Double {
        central((x * x + y * y).squareRoot(), core: core)
    }

    /// `central` at the distance `d` (pt).
    @inline(__always)
    func central(_ d: Double, core: Double) -> Double {
        if d < core { return fall(core) / core }
        guard d > 0 else { return 0 }
        return fall(d) / d
    }

    /// The potential (pt, per unit of the field's scale) of the central field `central` at the
    /// distance `d`: Ψ with Ψ′(d) = fall(d) outside the core, the ramp inside; 0 at the center.
    func potential(_ d: Double, core: Double) -> Double {
        let rim = max(core, minimumDistance)   // beyond it, fall(d) = (d / 100)^(−falloff)
        let atRim = fall(rim)
        if d < core { return 0.5 * atRim * d * d / core }
        var u = 0.5 * atRim * core
        if d < rim { return u + atRim * (d - core) }
        u += atRim * (rim - core)
        return u + antiderivative(d) - antiderivative(rim)
    }

    /// ∫ (d / 100)^(−falloff) dd.
    private func antiderivative(_ d: Double) -> Double {
        switch falloff {
        case 0: return d
        case 1: return Self.metre * log(d)
        case 2: return -Self.metre * Self.metre / d
        case -1: return d * d / (2 * Self.metre)
        default: return pow(Self.metre, falloff) * pow(d, 1 - falloff) / (1 - falloff)
        }
    }

    /// The acceleration `(ax, ay)` of a central conservative field (potential per unit mass
    /// `scale`·Ψ), corrected so that the engine's step keeps the item's energy in this field.
    ///
    /// Why: the step applies a constant acceleration **a**, giving **v**₁ = **v**₀ + Δt·**a** and
    /// **x**₁ = **x**₀ + Δt·**v**₀ + β·Δt²·**a**, β = (N + 1)/(2N). The point **x̃** = **x** − δ·**v**
    /// with δ = Δt/(2N) then moves by exactly Δt·**v**₀ + ½Δt²·**a**, so under a uniform field
    /// E = ½|**v**|² + U(**x̃**) is kept exactly; it is the energy this scheme conserves (the plain
    /// ½|**v**|² + U(**x**) differs from it by δ·**a**·**v**, which vanishes where the item turns).
    /// Where the field changes within a step — near a sun's core — one sampled **a** no longer keeps
    /// E. Newton's method finds the λ for which **a** + λ·**e** keeps it exactly, **e** being the
    /// direction in which E grows fastest with **a** (Δt·**v**₁ + ½Δt²·∇U(**x̃**₁): the smallest
    /// change of **a** that does it). Far from the center λ is a rounding error. Other forces
    /// (gravity, collisions, other fields) still do their own work.
    @inline(__always)
    func conservingEnergy(_ ax: Double, _ ay: Double, rx: Double, ry: Double, vx: Double, vy: Double,
                          scale: Double, core: Double) -> (Double, Double) {
        let delta = drift / dt - 0.5 * dt               // δ = (β − ½)·Δt
        let sx = rx - delta * vx, sy = ry - delta * vy  // x̃₀
        let half = 0.5 * dt * dt
        let start = 0.5 * (vx * vx + vy * vy) + scale * potential((sx * sx + sy * sy).squareRoot(), core: core)
        var bx = ax, by = ay
        var bestX = ax, bestY = ay, best = Double.infinity
        var ex = 0.0, ey = 0.0
        for iteration in 0..<4 {
            // The step's energy error with the acceleration (bx, by), at v₁ and x̃₁.
            let ux = vx + dt * bx, uy = vy + dt * by
            let x1 = sx + dt * vx + half * bx, y1 = sy + dt * vy + half * by
            let d1 = (x1 * x1 + y1 * y1).squareRoot()
            let kinetic = 0.5 * (ux * ux + uy * uy)
            let error = kinetic + scale * potential(d1, core: core) - start
            guard error.isFinite else { break }
            if abs(error) < best { best = abs(error); bestX = bx; bestY = by }
            // Close enough: far below the engine's single-precision state (10⁻⁷).
            if abs(error) <= 1e-9 * (abs(start) + kinetic) { break }
            // Its gradient with respect to the acceleration: Δt·v₁ + ½Δt²·∇U(x̃₁).
            let pull = half * scale * central(d1, core: core)
            let gx = dt * ux + pull * x1, gy = dt * uy + pull * y1
            if iteration == 0 {
                let norm = (gx * gx + gy * gy).squareRoot()
                guard norm > 0 else { break }
                ex = gx / norm
                ey = gy / norm
            }
            let slope = gx * ex + gy * ey
            guard slope > 0 else { break }
            let lambda = -error / slope
            bx += lambda * ex
            by += lambda * ey
            // A correction this small has converged (Newton's next one is its square): done.
            if abs(lambda) * dt <= 1e-6 * (ux * ux + uy * uy).squareRoot() {
                return (bx, by)
            }
        }
        return (bestX, bestY)
    }

    // MARK: The laws

    /// The acceleration (pt/s²) of an item of `mass` and `charge` whose center is at (`rx`, `ry`)
    /// from the field's position (pt), moving at (`vx`, `vy`) pt/s. Not for the custom kind
    /// (returns zero).
    @inline(__always)
    func acceleration(rx: Double, ry: Double, vx: Double, vy: Double, mass: Double, charge: Double) -> (Double, Double) {
        // Position-dependent laws see the item `lead` seconds ahead.
        let ex = rx + lead * vx, ey = ry + lead * vy
        let metre = Self.metre
        switch kind {
        case .linearGravity:
            let k = metre * strength * fall((ex * ex + ey * ey).squareRoot())
            return (k * dx, k * dy)
        case .radialGravity:
            let scale = metre * strength
            let k = -scale * central(ex, ey, core: radialCore)
            return conservingEnergy(k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy, scale: scale, core: radialCore)
        case .vortex:
            // PhysicsKit divides the force by the mass once more (a = S·fall/m² m/s²).
            let scale = metre * strength / (mass * mass)
            let k = scale * central(ex, ey, core: coreRadius(abs(scale)))
            // (−p̂y, p̂x): clockwise on a y-down screen, as UIKit turns it.
            return (-k * ey, k * ex)
        case .drag:
            // a = −c·|u|·u, u = v − 100·direction (the medium's velocity), c = S·fall/(100·m) per pt;
            // applied as the exact solution u(Δt) = u / (1 + c·|u|·Δt), so it never reverses u.
            let ux = vx - metre * dx, uy = vy - metre * dy
            let speed = (ux * ux + uy * uy).squareRoot()
            let c = strength * fall((ex * ex + ey * ey).squareRoot()) / (metre * mass)
            guard speed > 0, c != 0 else { return (0, 0) }
            let rate = c * speed
            let k = rate > 0 ? -rate / (1 + rate * dt) : -rate
            return (k * ux, k * uy)
        case .velocity:
            // v := 100·direction by the end of the step (strength and falloff do not count).
            return ((metre * dx - vx) / dt, (metre * dy - vy) / dt)
        case .noise, .turbulence:
            // F = S·fall·n·∇n newtons (PhysicsKit §M7), n sampled at the field-local point shifted by
            // the noise time along (1, 1) m, with time as the third coordinate and the gradients'
            // rotation angle.
            var k = metre * strength * fall((ex * ex + ey * ey).squareRoot()) * Self.noiseForceScale
            if kind == .turbulence {
                // F·m·|v|² with v in m/s: the acceleration, mass-independent, grows with the square of the speed.
                k *= (vx * vx + vy * vy) / (metre * metre)
            } else {
                k /= mass
            }
            guard k != 0 else { return (0, 0) }
            let shift = metre * noiseTime
            let f = noiseFrequency
            let n = SimplexNoise.sample((ex + shift) * f, (ey + shift) * f, metre * noiseTime * f,
                                        cosine: noiseCosine, sine: noiseSine, seed: noiseSeed)
            return (k * n.value * n.dx, k * n.value * n.dy)
        case .spring:
            // F = −100·S·fall·p̂ mass·pt/s² (S·fall newtons toward the position).
            if falloff == -1 && minimumDistance <= Self.distanceFloor {
                // UIKit's default: fall = d/100, so F = −S·p — Hooke's law, the spring constant
                // S mass/s², linear, with no core needed and no energy correction (the lead keeps
                // it). (A minimum radius makes the pull constant inside it: the general path.)
                let k = -strength / mass
                return (k * ex, k * ey)
            }
            // Any other falloff is a central pull like radial gravity's, of potential per unit
            // mass 100·S/m·Ψ: the same core and energy-keeping step.
            let scale = metre * strength / mass
            let core = coreRadius(abs(scale))
            let k = -scale * central(ex, ey, core: core)
            return conservingEnergy(k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy, scale: scale, core: core)
        case .electric:
            guard charge != 0 else { return (0, 0) }
            // F = 100·S·q·fall·p̂ mass·pt/s²: like charges repel. Its potential per unit mass is
            // −100·S·q/m·Ψ, so `scale` is that factor.
            let scale = -metre * strength * charge / mass
            let core = coreRadius(abs(scale))
            let k = -scale * central(ex, ey, core: core)
            return conservingEnergy(k * ex, k * ey, rx: rx, ry: ry, vx: vx, vy: vy, scale: scale, core: core)
        case .magnetic:
            guard charge != 0 else { return (0, 0) }
            // F = S·q·fall·(vy, −vx) mass·pt/s² (1 N per m/s): turn v by θ = ω·Δt toward (vy, −vx)
            // — counter-clockwise on screen for ω > 0 — exactly.
            let omega = strength * charge * fall((ex * ex + ey * ey).squareRoot()) / mass
            let theta = omega * dt
            let s = sin(theta)
            let half = sin(theta / 2)
            let cm1 = -2 * half * half  // cos θ − 1, without cancellation
            return ((cm1 * vx + s * vy) / dt, (cm1 * vy - s * vx) / dt)
        case .custom:
            return (0, 0)
        }
    }
}

/// Where a field's evaluation puts each item's force: a per-item array (zero-filled by the caller)
/// that the caller applies, or the crowd's held columns (`FieldCrowd.hold()`).
struct ForceWriter {
    let forces: UnsafeMutablePointer<Vec2>?
    let held: HeldColumns?
    /// Whether the evaluation flags the items inside the region for their sleep timers to restart
    /// (in `held`).
    let restarts: Bool

    /// Puts item `k`'s force `f`, whose acceleration `fits` under the limit; returns whether it
    /// was rejected (not finite, or too large: NaN in the array, a flag in the columns).
    @inline(__always)
    func put(_ k: Int, _ f: Vec2, fits: Bool) -> Bool {
        if let forces {
            forces[k] = fits ? f : Vec2(.nan, .nan)
            return !(fits && f.isFinite)
        }
        return held!.add(k, f, fits: fits)
    }
}
