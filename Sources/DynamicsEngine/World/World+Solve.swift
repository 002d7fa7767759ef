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
        let jointHertz = min(def.jointHertz, max(0.01, def.jointHertzLimit) * invH)
        let ctx = JointContext(h: h, invH: invH, jointSoftness: Softness(hertz: jointHertz, zeta: def.jointDampingRatio, h: h))

        // Dense per-step body arrays; index `awakeCount` is the shared zero record for static bodies.
        let states = stateBuffer.reset(count: awakeCount + 1, to: BodyState())
        let sims = simBuffer.reset(count: awakeCount + 1, to: BodyStepData())
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

        // Joints whose bodies are awake.
        var jointList: [Int32] = []
        for ji in 0..<joints.count where joints[ji].isAlive {
            let a = bodies[Int(joints[ji].bodyA)], b = bodies[Int(joints[ji].bodyB)]
            if a.awakeIndex < 0 && b.awakeIndex < 0 { continue }
            jointList.append(Int32(ji))
        }
        let dummy = Int32(awakeCount)
        let warmStartScale: Float = 1
        bodies.withUnsafeBufferPointer { bb in
            joints.withUnsafeMutableBufferPointer { jj in
                for ji in jointList {
                    JointSolver.prepare(&jj[Int(ji)], bodies: bb.baseAddress!, sims: sims, dummy: dummy, ctx: ctx, warmStartScale: warmStartScale)
                }
            }
        }

        // Graph colouring puts the constraints in Box2D's solve order (and is what lets a colour be
        // solved four lanes wide, or in parallel): overflow first, then colour by colour, joints
        // before contacts. Contacts are coloured in contact order, then prepared straight into
        // their colour's place, so nothing big is copied twice.
        let coloring = ConstraintColoring(bodyCount: awakeCount)
        var jointColors = [Int32](repeating: 0, count: jointList.count)
        for (k, ji) in jointList.enumerated() {
            let j = joints[Int(ji)]
            jointColors[k] = coloring.assign(j.indexA, j.indexB, dynamicA: sims[Int(j.indexA)].isDynamic, dynamicB: sims[Int(j.indexB)].isDynamic)
        }
        var solved: [Int32] = []          // contact indices
        var contactColors: [Int32] = []
        solved.reserveCapacity(contacts.count)
        contactColors.reserveCapacity(contacts.count)
        contacts.withUnsafeBufferPointer { cbuf in
            bodies.withUnsafeBufferPointer { bbuf in
                for ci in 0..<cbuf.count {
                    let c = cbuf[ci]
                    guard c.isAlive, c.isTouching else { continue }
                    let ia = bbuf[Int(c.bodyA)].awakeIndex, ib = bbuf[Int(c.bodyB)].awakeIndex
                    if ia < 0 && ib < 0 { continue }
                    let a = ia >= 0 ? ia : dummy, b = ib >= 0 ? ib : dummy
                    solved.append(Int32(ci))
                    contactColors.append(coloring.assign(a, b, dynamicA: sims[Int(a)].isDynamic, dynamicB: sims[Int(b)].isDynamic))
                }
            }
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
        }
        var constraints = [ContactConstraint](repeating: ContactConstraint(), count: solved.count)
        contacts.withUnsafeBufferPointer { cbuf in
            bodies.withUnsafeBufferPointer { bbuf in
                constraints.withUnsafeMutableBufferPointer { out in
                    var fill = contactStart
                    for (k, ci) in solved.enumerated() {
                        let slot = fill[Int(contactColors[k])]
                        fill[Int(contactColors[k])] += 1
                        let c = cbuf[Int(ci)]
                        let bA = bbuf[Int(c.bodyA)], bB = bbuf[Int(c.bodyB)]
                        let cc = out.baseAddress! + slot
                        cc.pointee.a = bA.awakeIndex >= 0 ? bA.awakeIndex : dummy
                        cc.pointee.b = bB.awakeIndex >= 0 ? bB.awakeIndex : dummy
                        cc.pointee.contact = ci
                        cc.pointee.friction = c.friction
                        cc.pointee.restitution = c.restitution
                        ContactSolver.prepare(&cc.pointee, manifold: c.manifold, sims: sims, states: states, softness: softness,
                                              staticSoftness: staticSoftness, warmStartScale: warmStartScale,
                                              isStaticPair: bA.type == .static || bB.type == .static)
                    }
                }
            }
        }
        lastColorCounts = (0..<colorCount).map { contactStart[$0 + 1] - contactStart[$0] + jointStart[$0 + 1] - jointStart[$0] }

        // Colours 1… are packed four constraints wide; the overflow slot stays scalar.
        var wide: [WideContact] = []
        var wideStart = [Int](repeating: 0, count: colorCount + 1)
        wide.reserveCapacity(constraints.count / 4 + colorCount)
        constraints.withUnsafeBufferPointer { cb in
            for color in 0..<colorCount {
                wideStart[color] = wide.count
                if color > 0 {
                    WideContactSolver.pack(cb.baseAddress!, contactStart[color]..<contactStart[color + 1], dummy: dummy, into: &wide)
                }
            }
            wideStart[colorCount] = wide.count
        }

        let jointIterations = max(1, min(def.jointIterations, 64))
        let maxSpeed = maxLinearSpeed
        let push = maxPushSpeed
        joints.withUnsafeMutableBufferPointer { jj in
            let jbase = jj.baseAddress
            constraints.withUnsafeMutableBufferPointer { cb in
                let cbase = cb.baseAddress
                wide.withUnsafeMutableBufferPointer { wb in
                    let wbase = wb.baseAddress
                    let overflowContacts = contactStart[0]..<contactStart[1]
                    let pool = self.pool
                    // one stage: joints and overflow contacts on this thread, then the colour's wide
                    // contacts split across the pool (a colour's constraints share no dynamic body)
                    func stage(_ color: Int, joints jointWork: (Int) -> Void, overflow: (Int) -> Void, wide: @escaping (Int) -> Void) {
                        for k in jointStart[color]..<jointStart[color + 1] { jointWork(Int(jointList[k])) }
                        if color == 0 {
                            for c in overflowContacts { overflow(c) }
                        } else {
                            let lo = wideStart[color], n = wideStart[color + 1] - lo
                            pool.forEachRange(n, minimum: 16) { r in for w in r { wide(lo + w) } }
                        }
                    }
                    for _ in 0..<substeps {
                        // integrate velocities
                        pool.forEachRange(awakeCount, minimum: 256) { r in
                            for k in r {
                                let sd = sims[k]
                                guard sd.isDynamic else { continue }
                                var v = sd.linearDelta + sd.linearDampingFactor * states[k].v
                                let l2 = v.lengthSquared
                                if l2 > maxSpeed * maxSpeed {
                                    if l2.isFinite {
                                        v = (maxSpeed / v.length) * v
                                    } else if v.isFinite {
                                        // |v| > 1.8·10¹⁹ squares to ∞: scale down first, or the cap would zero it.
                                        let m = max(abs(v.x), abs(v.y))
                                        let u = (1 / m) * v
                                        v = (maxSpeed / u.length) * u
                                    }
                                }
                                states[k].v = v
                                states[k].w = sd.angularDelta + sd.angularDampingFactor * states[k].w
                            }
                        }
                        // warm start
                        for color in 0..<colorCount {
                            stage(color, joints: { JointSolver.warmStart(jbase! + $0, states) },
                                  overflow: { ContactSolver.warmStart(cbase! + $0, states) },
                                  wide: { WideContactSolver.warmStart(wbase! + $0, states) })
                        }
                        // solve (extra joint passes first: a long chain needs more than one)
                        for _ in 1..<jointIterations { for ji in jointList { JointSolver.solve(jbase! + Int(ji), states, ctx: ctx, useBias: true) } }
                        for color in 0..<colorCount {
                            stage(color, joints: { JointSolver.solve(jbase! + $0, states, ctx: ctx, useBias: true) },
                                  overflow: { ContactSolver.solve(cbase! + $0, states, invH: invH, useBias: true, maxPushSpeed: push) },
                                  wide: { WideContactSolver.solve(wbase! + $0, states, invH: invH, useBias: true, maxPushSpeed: push) })
                        }
                        // integrate positions
                        pool.forEachRange(awakeCount, minimum: 256) { r in
                            for k in r {
                                states[k].dq = states[k].dq.integrated(by: h * states[k].w)
                                states[k].dp += h * states[k].v
                            }
                        }
                        // relax
                        for _ in 1..<jointIterations { for ji in jointList { JointSolver.solve(jbase! + Int(ji), states, ctx: ctx, useBias: false) } }
                        for color in 0..<colorCount {
                            stage(color, joints: { JointSolver.solve(jbase! + $0, states, ctx: ctx, useBias: false) },
                                  overflow: { ContactSolver.solve(cbase! + $0, states, invH: invH, useBias: false, maxPushSpeed: push) },
                                  wide: { WideContactSolver.solve(wbase! + $0, states, invH: invH, useBias: false, maxPushSpeed: push) })
                        }
                    }
                    for color in 1..<colorCount {
                        WideContactSolver.unpack(wbase!, wideStart[color]..<wideStart[color + 1], cbase!, contactStart[color]..<contactStart[color + 1])
                    }
                }
                // restitution
                let threshold = restitutionThreshold
                // Several passes: applied point by point, one pass leaves a two-point manifold (a box
                // landing flat) about 12 % short of e·v, because the first point's impulse tips the
                // body; the passes converge on both points and cost nothing where e = 0.
                for _ in 0..<4 {
                    for c in 0..<cb.count { ContactSolver.applyRestitution(cbase! + c, states, threshold: threshold) }
                }
            }
        }

        // store impulses for the next step's warm start; a non-finite impulse (a numerical
        // blow-up the bodies were already protected from in `finalizeBodies`) is not carried over
        @inline(__always) func finite(_ x: Float) -> Float { x.isFinite ? x : 0 }
        contacts.withUnsafeMutableBufferPointer { cbuf in
            constraints.withUnsafeBufferPointer { ccs in
                for cc in ccs {
                    let m = cbuf.baseAddress! + Int(cc.contact)
                    m.pointee.manifold.p0.normalImpulse = finite(cc.p0.normalImpulse)
                    m.pointee.manifold.p0.tangentImpulse = finite(cc.p0.tangentImpulse)
                    m.pointee.manifold.p0.maxNormalImpulse = finite(cc.p0.maxNormalImpulse)
                    m.pointee.manifold.p0.normalVelocity = finite(cc.p0.relativeVelocity)
                    if cc.pointCount > 1 {
                        m.pointee.manifold.p1.normalImpulse = finite(cc.p1.normalImpulse)
                        m.pointee.manifold.p1.tangentImpulse = finite(cc.p1.tangentImpulse)
                        m.pointee.manifold.p1.maxNormalImpulse = finite(cc.p1.maxNormalImpulse)
                        m.pointee.manifold.p1.normalVelocity = finite(cc.p1.relativeVelocity)
                    }
                }
            }
        }
        for ji in jointList {
            let j = joints[Int(ji)]
            let sum = j.linearImpulse.x + j.linearImpulse.y + j.angularImpulse + j.axialImpulse + j.lowerImpulse
                + j.upperImpulse + j.motorImpulse + j.springImpulse
            if !sum.isFinite && [j.linearImpulse.x, j.linearImpulse.y, j.angularImpulse, j.axialImpulse, j.lowerImpulse,
                                 j.upperImpulse, j.motorImpulse, j.springImpulse].contains(where: { !$0.isFinite }) {
                joints[Int(ji)].linearImpulse = .zero
                joints[Int(ji)].angularImpulse = 0; joints[Int(ji)].axialImpulse = 0
                joints[Int(ji)].lowerImpulse = 0; joints[Int(ji)].upperImpulse = 0
                joints[Int(ji)].motorImpulse = 0; joints[Int(ji)].springImpulse = 0
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
        let continuous = def.enableContinuous
        awakeBodies.withUnsafeBufferPointer { awake in
        bodies.withUnsafeMutableBufferPointer { bbuf in
        for k in 0..<awakeCount {
            let bi = Int(awake[k])
            let b = bbuf.baseAddress! + bi
            let st = states[k]
            let v = st.v, w = st.w
            if !v.isFinite || !w.isFinite {
                // contain a numerical blow-up to this body: stop it where it was
                b.pointee.linearVelocity = .zero; b.pointee.angularVelocity = 0
                b.pointee.force = .zero; b.pointee.torque = 0
                continue
            }
            b.pointee.linearVelocity = v
            b.pointee.angularVelocity = w
            let newCenter = b.pointee.center0 + st.dp
            let q = st.dq.mul(b.pointee.rotation0).normalized
            if !newCenter.isFinite || !q.c.isFinite || !q.s.isFinite {
                b.pointee.linearVelocity = .zero; b.pointee.angularVelocity = 0
                continue
            }
            b.pointee.center = newCenter
            b.pointee.transform.q = q
            b.pointee.transform.p = newCenter - q.rotate(b.pointee.localCenter)
            b.pointee.force = .zero
            b.pointee.torque = 0
            if enableSleep {
                let sleepSpeed = max(v.length, b.pointee.maxExtent * abs(w))
                if !b.pointee.enableSleep || sleepSpeed > sleepVel { b.pointee.sleepTime = 0 } else { b.pointee.sleepTime += dt }
            }
            b.pointee.isFast = false
            if continuous && b.pointee.type == .dynamic && b.pointee.minExtent > 0 {
                let travel = st.dp.length
                if travel > 0.5 * b.pointee.minExtent { fastBodies.append(Int32(bi)); b.pointee.isFast = true }
            }
        }
        }
        }
        for bi in fastBodies { solveContinuous(Int(bi)) }
        // shape boxes
        var moved: [Int32] = []
        awakeBodies.withUnsafeBufferPointer { awake in
            bodies.withUnsafeBufferPointer { bbuf in
                shapes.withUnsafeMutableBufferPointer { sbuf in
                    for k in 0..<awakeCount {
                        let bi = Int(awake[k])
                        let xf = bbuf[bi].transform
                        var s = bbuf[bi].headShape
                        while s >= 0 {
                            let sh = sbuf.baseAddress! + Int(s)
                            let box = sh.pointee.computeAABB(xf)
                            sh.pointee.aabb = box
                            if !sh.pointee.fatAABB.contains(box) {
                                sh.pointee.fatAABB = box.inflated(by: margin(for: box))
                                if !sh.pointee.enlarged {
                                    sh.pointee.enlarged = true
                                    moved.append(s)
                                }
                            }
                            s = sh.pointee.nextShape
                        }
                    }
                }
            }
        }
        movedProxies.append(contentsOf: moved)
    }
}
