// Elastic impacts that pass along a row of touching bodies (a Newton's cradle).
//
// The solver, like Box2D v3's, solves a step's contacts together, and a speculative contact (a gap
// smaller than the speculative distance) pushes before the bodies touch. A ball striking the end of
// a row of balls 1 pt apart therefore shoved the whole row at once, as one inelastic lump, and the
// restitution pass, which only bounces contacts that were closing when the step began, could then
// only throw the first ball back: the middle balls moved about as far as the last one. Box2D 2.x,
// UIKit's engine, made contacts only on overlap, so there an impact reached the next ball a step
// later and the cradle worked.
//
// Here, before the step's constraints are prepared, elastic impacts along chains are processed one
// contact at a time from the current velocities, as in Guendelman, Bridson and Fedkiw, "Nonconvex
// rigid bodies with stacking" (SIGGRAPH 2003: a collision pass before the contact pass): a contact
// closing faster than the restitution threshold, whose gap closes within the step, gets the impulse
// −(1 + e)·vₙ/K at once, and the sweep repeats until no such contact is left. Each impact sees the
// velocities the one before left, so the momentum passes ball to ball. The contacts keep their
// speculative points (nothing tunnels), and the prepared constraints see the bodies already
// separating, so the restitution pass leaves them alone.
//
// Only chains are treated so: contacts between two dynamic bodies, neither of which carried load
// last step (no contact of theirs has a warm-start impulse), where one of the two touches two
// dynamic bodies so. Stacks and piles, whose contacts carry weight, and walls and floors keep the
// contact solver and its restitution pass; so does a lone ball bouncing on the floor, which is
// stopped at the surface by its speculative contact and then bounced, so it visibly touches the
// floor instead of turning back up to a step's travel above it.

/// An elastic contact as the impact pass sees it: one impulse point, its effective mass.
struct Impact {
    var a: Int32, b: Int32
    var normal: Vec2, rA: Vec2, rB: Vec2
    var inverseK: Float, separation: Float, restitution: Float
}

/// A body's part in the impact pass.
struct ImpactBody {
    /// Elastic contacts with other dynamic bodies, counted up to 2 (a chain).
    var degree: UInt8 = 0
    /// The last sweep that changed the body's velocity, 0 for none.
    var changedInSweep: UInt8 = 0
    /// Whether one of its contacts carried load last step.
    var isPressed = false
}

extension World {
    /// Strikes the closing elastic contacts of chains one at a time (see the top of this file),
    /// changing the awake bodies' velocities in `states` (pt/s, rad/s) before the step's
    /// constraints are prepared; `dt` is the step (s). Costs one pass over the touching contacts
    /// when a touching contact has restitution, and nothing more when none of them is closing.
    func resolveImpactChains(_ solved: UnsafePointer<SolvedContact>, count: Int, states: UnsafeMutablePointer<BodyState>,
                             sims: UnsafePointer<BodyStepData>, bodyCount: Int, dt: Float) {
        let threshold = restitutionThreshold
        let body = scratch.impactBodies.reset(count: bodyCount + 1, to: ImpactBody())
        let impacts = scratch.impacts.reserve(count: max(1, count))
        var impactCount = 0
        var anyClosing = false
        // One pass over the touching contacts: the elastic ones, their chain degrees, and whether
        // any of them is closing at all (usually none is, and the pass ends here).
        let cbase = contacts.base
        for k in 0..<count {
            let sc = solved[k]
            let cp = cbase + Int(sc.contact)
            let m = cp.pointee.manifold
            guard m.pointCount > 0 else { continue }
            // A body that carried load last step (a contact with a warm-start impulse) is in a
            // stack or a pile: the contact solver's business. Impacts pass only between bodies
            // that touch without pressing, like the balls of a cradle hanging side by side.
            if m.p0.normalImpulse > 0 || (m.pointCount > 1 && m.p1.normalImpulse > 0) {
                if sims[Int(sc.a)].isDynamic { body[Int(sc.a)].isPressed = true }
                if sims[Int(sc.b)].isDynamic { body[Int(sc.b)].isPressed = true }
                continue
            }
            let e = cp.pointee.restitution
            guard e > 0 else { continue }
            // A chain passes momentum between dynamic bodies: a wall or a floor neither makes one
            // nor takes part (a row landing on the floor touches it, then bounces, as usual).
            let a = Int(sc.a), b = Int(sc.b)
            guard sims[a].isDynamic && sims[b].isDynamic else { continue }
            if body[a].degree < 2 { body[a].degree += 1 }
            if body[b].degree < 2 { body[b].degree += 1 }
            // One impulse point per contact: a two-point manifold (a face on a face) is struck
            // at its middle, which is where the impact of a flat face acts.
            let twoPoints = m.pointCount > 1
            let rA = twoPoints ? 0.5 * (m.p0.anchorA + m.p1.anchorA) : m.p0.anchorA
            let rB = twoPoints ? 0.5 * (m.p0.anchorB + m.p1.anchorB) : m.p0.anchorB
            let separation = twoPoints ? min(m.p0.separation, m.p1.separation) : m.p0.separation
            let n = m.normal
            let rnA = cross(rA, n), rnB = cross(rB, n)
            let kn = sims[a].invMass + sims[b].invMass + sims[a].invI * rnA * rnA + sims[b].invI * rnB * rnB
            guard kn > 0, kn.isFinite else { continue }
            if !anyClosing {
                let vn = dot(n, (states[b].v + cross(states[b].w, rB)) - (states[a].v + cross(states[a].w, rA)))
                anyClosing = vn < -threshold && separation + vn * dt < 0
            }
            impacts[impactCount] = Impact(a: sc.a, b: sc.b, normal: n, rA: rA, rB: rB,
                                          inverseK: 1 / kn, separation: separation, restitution: e)
            impactCount += 1
        }
        guard anyClosing else { return }
        // Sweeps in contact order. After the first, only contacts of a body whose velocity the
        // previous sweep changed can have started closing. A row of n needs at most n sweeps (one in
        // contact order); the cap stops a body squeezed between elastic walls, which the contact
        // solver then holds.
        for sweep in 1...64 {
            var struck = false
            let stamp = UInt8(sweep), previous = UInt8(sweep - 1)
            for i in 0..<impactCount {
                let p = impacts[i]
                let a = Int(p.a), b = Int(p.b)
                let ba = body[a], bb = body[b]
                guard ba.degree >= 2 || bb.degree >= 2, !ba.isPressed, !bb.isPressed else { continue }
                if sweep > 1 && ba.changedInSweep < previous && bb.changedInSweep < previous { continue }
                let vA = states[a].v, wA = states[a].w, vB = states[b].v, wB = states[b].w
                let vn = dot(p.normal, (vB + cross(wB, p.rB)) - (vA + cross(wA, p.rA)))
                guard vn < -threshold, p.separation + vn * dt < 0 else { continue }
                let P = (-(1 + p.restitution) * vn * p.inverseK) * p.normal
                // both bodies are dynamic (see the first pass)
                states[a].v = vA - sims[a].invMass * P; states[a].w = wA - sims[a].invI * cross(p.rA, P)
                states[b].v = vB + sims[b].invMass * P; states[b].w = wB + sims[b].invI * cross(p.rB, P)
                body[a].changedInSweep = stamp
                body[b].changedInSweep = stamp
                struck = true
            }
            if !struck { break }
        }
    }
}
