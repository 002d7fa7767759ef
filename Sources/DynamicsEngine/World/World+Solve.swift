import Foundation

extension World {
    /// The soft step: prepare constraints once, then `substeps` rounds of integrate velocities →
    /// warm start → solve (with position-error bias) → integrate positions → relax (without bias);
    /// then restitution, store impulses for the next step's warm start, and finalise the bodies.
    func solve(dt: Float, substeps: Int) {
        let awakeCount = awakeBodies.count
        let h = dt / Float(substeps)
        let invH = 1 / h
        let u = def.lengthUnitsPerMeter
        _ = u
        let contactHertz = min(def.contactHertz, 0.125 * invH)
        let softness = Softness(hertz: contactHertz, zeta: def.contactDampingRatio, h: h)
        let staticSoftness = Softness(hertz: 2 * contactHertz, zeta: def.contactDampingRatio, h: h)
        let jointHertz = min(def.jointHertz, 0.25 * invH)
        let ctx = JointContext(h: h, invH: invH, jointSoftness: Softness(hertz: jointHertz, zeta: def.jointDampingRatio, h: h))

        // Dense per-step body arrays; index `awakeCount` is the shared zero record for static bodies.
        let states = UnsafeMutablePointer<BodyState>.allocate(capacity: awakeCount + 1)
        let sims = UnsafeMutablePointer<BodyStepData>.allocate(capacity: awakeCount + 1)
        defer { states.deallocate(); sims.deallocate() }
        states.initialize(repeating: BodyState(), count: awakeCount + 1)
        sims.initialize(repeating: BodyStepData(), count: awakeCount + 1)
        let g = gravity
        bodies.withUnsafeMutableBufferPointer { bb in
            for k in 0..<awakeCount {
                let bi = Int(awakeBodies[k])
                var b = bb[bi]
                b.center0 = b.center
                b.rotation0 = b.transform.q
                states[k].v = b.linearVelocity
                states[k].w = b.angularVelocity
                var sd = BodyStepData()
                sd.maxExtent = b.maxExtent
                if b.type == .dynamic {
                    sd.isDynamic = true
                    sd.invMass = b.invMass
                    sd.invI = b.invInertia
                    sd.linearDelta = h * (b.gravityScale * g + b.invMass * b.force)
                    sd.angularDelta = h * b.invInertia * b.torque
                    sd.linearDampingFactor = 1 / (1 + h * b.linearDamping)
                    sd.angularDampingFactor = 1 / (1 + h * b.angularDamping)
                }
                sims[k] = sd
                bb[bi] = b
            }
        }

        // Contact constraints, in contact order.
        var constraints: [ContactConstraint] = []
        constraints.reserveCapacity(contacts.count)
        let dummy = Int32(awakeCount)
        let warmStartScale: Float = 1
        for ci in 0..<contacts.count {
            let c = contacts[ci]
            guard c.isAlive, c.isTouching else { continue }
            let bA = bodies[Int(c.bodyA)], bB = bodies[Int(c.bodyB)]
            if bA.awakeIndex < 0 && bB.awakeIndex < 0 { continue }
            var cc = ContactConstraint()
            cc.a = bA.awakeIndex >= 0 ? bA.awakeIndex : dummy
            cc.b = bB.awakeIndex >= 0 ? bB.awakeIndex : dummy
            cc.contact = Int32(ci)
            cc.friction = c.friction
            cc.restitution = c.restitution
            ContactSolver.prepare(&cc, manifold: c.manifold, sims: sims, states: states, softness: softness,
                                  staticSoftness: staticSoftness, warmStartScale: warmStartScale,
                                  isStaticPair: bA.type == .static || bB.type == .static)
            constraints.append(cc)
        }

        // Joints whose bodies are awake.
        var jointList: [Int32] = []
        for ji in 0..<joints.count where joints[ji].isAlive {
            let a = bodies[Int(joints[ji].bodyA)], b = bodies[Int(joints[ji].bodyB)]
            if a.awakeIndex < 0 && b.awakeIndex < 0 { continue }
            jointList.append(Int32(ji))
        }
        bodies.withUnsafeBufferPointer { bb in
            joints.withUnsafeMutableBufferPointer { jj in
                for ji in jointList {
                    JointSolver.prepare(&jj[Int(ji)], bodies: bb.baseAddress!, sims: sims, dummy: dummy, ctx: ctx, warmStartScale: warmStartScale)
                }
            }
        }

        // Graph colouring puts the constraints in Box2D's solve order (and is what lets colours be
        // solved in parallel later): overflow first, then colour by colour, joints before contacts.
        let coloring = ConstraintColoring(bodyCount: awakeCount)
        var jointColors = [Int32](repeating: 0, count: jointList.count)
        for (k, ji) in jointList.enumerated() {
            let j = joints[Int(ji)]
            jointColors[k] = coloring.assign(j.indexA, j.indexB, dynamicA: sims[Int(j.indexA)].isDynamic, dynamicB: sims[Int(j.indexB)].isDynamic)
        }
        var contactColors = [Int32](repeating: 0, count: constraints.count)
        for k in 0..<constraints.count {
            let cc = constraints[k]
            contactColors[k] = coloring.assign(cc.a, cc.b, dynamicA: sims[Int(cc.a)].isDynamic, dynamicB: sims[Int(cc.b)].isDynamic)
        }
        coloring.release()
        let colorCount = ConstraintColoring.colorCount
        var jointStart = [Int](repeating: 0, count: colorCount + 1)
        var contactStart = [Int](repeating: 0, count: colorCount + 1)
        for c in jointColors { jointStart[Int(c) + 1] += 1 }
        for c in contactColors { contactStart[Int(c) + 1] += 1 }
        for i in 0..<colorCount { jointStart[i + 1] += jointStart[i]; contactStart[i + 1] += contactStart[i] }
        do {
            var fill = jointStart
            var ordered = [Int32](repeating: 0, count: jointList.count)
            for (k, c) in jointColors.enumerated() { ordered[fill[Int(c)]] = jointList[k]; fill[Int(c)] += 1 }
            jointList = ordered
            fill = contactStart
            var orderedC = [ContactConstraint](repeating: ContactConstraint(), count: constraints.count)
            for (k, c) in contactColors.enumerated() { orderedC[fill[Int(c)]] = constraints[k]; fill[Int(c)] += 1 }
            constraints = orderedC
        }
        lastColorCounts = (0..<colorCount).map { contactStart[$0 + 1] - contactStart[$0] + jointStart[$0 + 1] - jointStart[$0] }

        let maxSpeed = maxLinearSpeed
        let push = maxPushSpeed
        joints.withUnsafeMutableBufferPointer { jj in
            let jbase = jj.baseAddress
            constraints.withUnsafeMutableBufferPointer { cb in
                let cbase = cb.baseAddress
                let ccount = cb.count
                for _ in 0..<substeps {
                    // integrate velocities
                    for k in 0..<awakeCount {
                        let sd = sims[k]
                        guard sd.isDynamic else { continue }
                        var v = sd.linearDelta + sd.linearDampingFactor * states[k].v
                        if v.lengthSquared > maxSpeed * maxSpeed { v = (maxSpeed / v.length) * v }
                        states[k].v = v
                        states[k].w = sd.angularDelta + sd.angularDampingFactor * states[k].w
                    }
                    // warm start
                    for ji in jointList { JointSolver.warmStart(jbase! + Int(ji), states) }
                    for c in 0..<ccount { ContactSolver.warmStart(cbase! + c, states) }
                    // solve
                    for ji in jointList { JointSolver.solve(jbase! + Int(ji), states, ctx: ctx, useBias: true) }
                    for c in 0..<ccount { ContactSolver.solve(cbase! + c, states, invH: invH, useBias: true, maxPushSpeed: push) }
                    // integrate positions
                    for k in 0..<awakeCount {
                        states[k].dq = states[k].dq.integrated(by: h * states[k].w)
                        states[k].dp += h * states[k].v
                    }
                    // relax
                    for ji in jointList { JointSolver.solve(jbase! + Int(ji), states, ctx: ctx, useBias: false) }
                    for c in 0..<ccount { ContactSolver.solve(cbase! + c, states, invH: invH, useBias: false, maxPushSpeed: push) }
                }
                // restitution
                let threshold = restitutionThreshold
                for c in 0..<ccount { ContactSolver.applyRestitution(cbase! + c, states, threshold: threshold) }
            }
        }

        // store impulses
        for cc in constraints {
            let ci = Int(cc.contact)
            contacts[ci].manifold.p0.normalImpulse = cc.p0.normalImpulse
            contacts[ci].manifold.p0.tangentImpulse = cc.p0.tangentImpulse
            contacts[ci].manifold.p0.maxNormalImpulse = cc.p0.maxNormalImpulse
            contacts[ci].manifold.p0.normalVelocity = cc.p0.relativeVelocity
            if cc.pointCount > 1 {
                contacts[ci].manifold.p1.normalImpulse = cc.p1.normalImpulse
                contacts[ci].manifold.p1.tangentImpulse = cc.p1.tangentImpulse
                contacts[ci].manifold.p1.maxNormalImpulse = cc.p1.maxNormalImpulse
                contacts[ci].manifold.p1.normalVelocity = cc.p1.relativeVelocity
            }
        }

        finalizeBodies(states: states, dt: dt)
    }

    /// Writes the solver's results back: velocities, centre of mass, rotation, origin transform; the
    /// sleep timer; shape boxes (fat boxes grow only when a shape leaves them, so resting bodies never
    /// touch the grid); and continuous collision for bodies that moved further than their size allows.
    func finalizeBodies(states: UnsafeMutablePointer<BodyState>, dt: Float) {
        let awakeCount = awakeBodies.count
        let sleepVel = sleepThreshold
        let enableSleep = def.enableSleep
        var fastBodies: [Int32] = []
        for k in 0..<awakeCount {
            let bi = Int(awakeBodies[k])
            var b = bodies[bi]
            let st = states[k]
            var v = st.v, w = st.w
            if !v.isFinite || !w.isFinite {
                // contain a numerical blow-up to this body: stop it where it was
                v = .zero; w = 0
                b.linearVelocity = .zero; b.angularVelocity = 0
                b.force = .zero; b.torque = 0
                bodies[bi] = b
                continue
            }
            b.linearVelocity = v
            b.angularVelocity = w
            let newCenter = b.center0 + st.dp
            let q = st.dq.mul(b.rotation0).normalized
            if !newCenter.isFinite || !q.c.isFinite || !q.s.isFinite {
                b.linearVelocity = .zero; b.angularVelocity = 0
                bodies[bi] = b
                continue
            }
            b.center = newCenter
            b.transform.q = q
            b.transform.p = newCenter - q.rotate(b.localCenter)
            b.force = .zero
            b.torque = 0
            if enableSleep {
                let sleepSpeed = max(v.length, b.maxExtent * abs(w))
                if !b.enableSleep || sleepSpeed > sleepVel { b.sleepTime = 0 } else { b.sleepTime += dt }
            }
            b.isFast = false
            if def.enableContinuous && b.type == .dynamic && b.minExtent > 0 {
                let travel = st.dp.length
                if travel > 0.5 * b.minExtent { fastBodies.append(Int32(bi)); b.isFast = true }
            }
            bodies[bi] = b
        }
        for bi in fastBodies { solveContinuous(Int(bi)) }
        // shape boxes
        for k in 0..<awakeCount {
            let bi = Int(awakeBodies[k])
            let xf = bodies[bi].transform
            var s = bodies[bi].headShape
            while s >= 0 {
                let si = Int(s)
                let box = shapes[si].computeAABB(xf)
                shapes[si].aabb = box
                if !shapes[si].fatAABB.contains(box) {
                    shapes[si].fatAABB = box.inflated(by: margin(for: box))
                    if !shapes[si].enlarged {
                        shapes[si].enlarged = true
                        movedProxies.append(s)
                    }
                }
                s = shapes[si].nextShape
            }
        }
    }
}
