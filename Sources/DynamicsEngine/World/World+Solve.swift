import Foundation

extension World {
    /// The soft step: prepare constraints once, then `substeps` rounds of integrate velocities →
    /// warm start → solve (with position-error bias) → integrate positions → relax (without bias);
    /// then restitution, store impulses for the next step's warm start, and finalise the bodies.
    func solve(dt: Float, substeps: Int) {
        var timer = PhaseTimer(isProfiling)
        let awakeCount = awakeBodies.count
        let h = dt / Float(substeps)
        let invH = 1 / h
        let contactHertz = min(def.contactHertz, 0.125 * invH)
        let softness = Softness(hertz: contactHertz, zeta: def.contactDampingRatio, h: h)
        let staticSoftness = Softness(hertz: 2 * contactHertz, zeta: def.contactDampingRatio, h: h)
        let jointHertz = min(def.jointHertz, max(0.01, def.jointHertzLimit) * invH)
        let ctx = JointContext(h: h, invH: invH, jointSoftness: Softness(hertz: jointHertz, zeta: def.jointDampingRatio, h: h))

        // Dense per-step body arrays; index `awakeCount` is the shared zero record for static bodies,
        // and after it each of the pool's chunks has a record the wide solver writes its unused
        // lanes to.
        let states = stateBuffer.reset(count: awakeCount + 1 + pool.maximumChunks, to: BodyState())
        let sims = simBuffer.reset(count: awakeCount + 1, to: BodyStepData())
        let g = gravity
        bodies.withUnsafeMutableBufferPointer { bb in
            for k in 0..<awakeCount {
                // through the pointer, writing back only the two fields that change (copying the
                // record out and back wrote all of it)
                let bp = bb.baseAddress! + Int(awakeBodies[k])
                bp.pointee.center0 = bp.pointee.center
                bp.pointee.rotation0 = bp.pointee.transform.q
                let b = bp.pointee   // only the fields read below are loaded
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
            }
        }

        // Joints whose bodies are awake, coloured as they are found (see the colouring below; joints
        // take their colours before contacts). Colouring here, from the bodies' awake indices as
        // `JointSolver.prepare` sets them, saves a second pass over the joint records.
        let dummy = Int32(awakeCount)
        let coloring = ConstraintColoring(bodyCount: awakeCount)
        var jointList: [Int32] = []
        var jointColors: [Int32] = []
        joints.withUnsafeBufferPointer { jj in
            bodies.withUnsafeBufferPointer { bb in
                for ji in 0..<jj.count where jj[ji].isAlive {
                    let ia = bb[Int(jj[ji].bodyA)].awakeIndex, ib = bb[Int(jj[ji].bodyB)].awakeIndex
                    if ia < 0 && ib < 0 { continue }
                    jointList.append(Int32(ji))
                    let a = ia >= 0 ? ia : dummy, b = ib >= 0 ? ib : dummy
                    jointColors.append(coloring.assign(a, b, dynamicA: sims[Int(a)].isDynamic, dynamicB: sims[Int(b)].isDynamic))
                }
            }
        }
        // Each awake joint is prepared into the `JointSim` at its place in solve order (colour by
        // colour, the overflow slot first; within a colour in joint order), so the sub-steps read
        // the sims front to back. Preparing and storing run in joint order: the joint records are
        // then read front to back, and the scattered accesses are to the sims.
        let colorCount = ConstraintColoring.colorCount
        var jointStart = [Int](repeating: 0, count: colorCount + 1)
        for c in jointColors { jointStart[Int(c) + 1] += 1 }
        for i in 0..<colorCount { jointStart[i + 1] += jointStart[i] }
        var jointSlot = jointColors   // becomes each found joint's place in solve order
        do {
            var fill = jointStart
            for k in 0..<jointSlot.count {
                let c = Int(jointSlot[k])
                jointSlot[k] = Int32(fill[c])
                fill[c] += 1
            }
        }
        let jointSims = jointSimBuffer.reserve(count: max(1, jointList.count))
        bodies.withUnsafeBufferPointer { bb in
            joints.withUnsafeBufferPointer { jj in
                jointList.withUnsafeBufferPointer { list in
                    jointSlot.withUnsafeBufferPointer { slot in
                        let bp = bb.baseAddress!, jp = jj.baseAddress!
                        // each joint reads its record and the bodies, and writes only its own sim
                        pool.forEachRange(list.count, minimum: SplitSize.bodies) { r in
                            for k in r {
                                JointSolver.prepare(jp + Int(list[k]), into: jointSims + Int(slot[k]), bodies: bp, sims: sims,
                                                    dummy: dummy, ctx: ctx)
                            }
                        }
                    }
                }
            }
        }

        // Graph colouring puts the constraints in Box2D's solve order (and is what lets a colour be
        // solved four lanes wide, or in parallel): overflow first, then colour by colour, joints
        // before contacts. Coloured contacts are prepared straight into their four-wide constraint
        // and their impulses stored from it: no scalar copy of them is ever made.
        var contactStart = [Int](repeating: 0, count: colorCount + 1)
        // Touching contacts with an awake body, in contact order: their indices (later the solve
        // order) and colours.
        let maxContacts = contacts.count
        let ordered = orderedContactBuffer.reserve(count: max(1, maxContacts))
        let colorOf = contactColorBuffer.reserve(count: max(1, maxContacts))
        let solvedIndices = solvedContactBuffer.reserve(count: max(1, maxContacts))
        var solvedCount = 0
        var anyRestitution = false
        contacts.withUnsafeBufferPointer { cbuf in
            bodies.withUnsafeBufferPointer { bbuf in
                for ci in 0..<cbuf.count {
                    let c = (cbuf.baseAddress! + ci).pointee   // only the fields read below are loaded
                    guard c.isAlive, c.isTouching else { continue }
                    let ia = bbuf[Int(c.bodyA)].awakeIndex, ib = bbuf[Int(c.bodyB)].awakeIndex
                    if ia < 0 && ib < 0 { continue }
                    let a = ia >= 0 ? ia : dummy, b = ib >= 0 ? ib : dummy
                    let color = coloring.assign(a, b, dynamicA: sims[Int(a)].isDynamic, dynamicB: sims[Int(b)].isDynamic)
                    // What the preparation needs of the bodies, read now while the pass is sequential:
                    // later the contacts are visited colour by colour, out of memory order.
                    let isStaticPair = bbuf[Int(c.bodyA)].type == .static || bbuf[Int(c.bodyB)].type == .static
                    solvedIndices[solvedCount] = SolvedContact(contact: Int32(ci), a: a, b: b, isStaticPair: isStaticPair)
                    colorOf[solvedCount] = color
                    contactStart[Int(color) + 1] += 1
                    solvedCount += 1
                    if c.restitution != 0 { anyRestitution = true }
                }
            }
        }
        coloring.release()
        if anyRestitution {
            // elastic impacts along rows of touching bodies, from the velocities the step starts with
            resolveImpactChains(solvedIndices, count: solvedCount, states: states, sims: sims, bodyCount: awakeCount, dt: dt)
        }
        for i in 0..<colorCount { contactStart[i + 1] += contactStart[i] }
        do {
            var fill = contactStart
            // in contact order: the contact records are read front to back (see `ContactInput`)
            contacts.withUnsafeBufferPointer { cbuf in
                let cp = cbuf.baseAddress!
                for k in 0..<solvedCount {
                    let c = Int(colorOf[k])
                    let sc = solvedIndices[k]
                    (ordered + fill[c]).initialize(to: ContactInput(sc, found: k, cp + Int(sc.contact)))
                    fill[c] += 1
                }
            }
        }
        solvedContactCount = solvedCount
        lastColorCounts = (0..<colorCount).map { contactStart[$0 + 1] - contactStart[$0] + jointStart[$0 + 1] - jointStart[$0] }

        // Colours 1… are four lanes wide; the overflow slot stays scalar.
        var wideStart = [Int](repeating: 0, count: colorCount + 1)   // wide constraints of colour c: wideStart[c]..<wideStart[c + 1]
        for color in 1..<colorCount {
            wideStart[color + 1] = wideStart[color] + (contactStart[color + 1] - contactStart[color] + 3) / 4
        }
        let wideCount = wideStart[colorCount]
        let overflowCount = contactStart[1]
        let constraints = overflowBuffer.reserve(count: max(1, overflowCount))
        let wide = wideBuffer.reserve(count: max(1, wideCount))
        let wideFirst = wideFirstBuffer.reserve(count: max(1, wideCount))
        // Each wide constraint's first contact in the solve order and its number of lanes (1…4).
        var wideLanes = [UInt8](repeating: 0, count: wideCount)
        for color in 1..<colorCount {
            var k = contactStart[color]
            for w in wideStart[color]..<wideStart[color + 1] {
                wideFirst[w] = Int32(k)
                wideLanes[w] = UInt8(min(4, contactStart[color + 1] - k))
                k += 4
            }
        }
        do {
            @inline(__always) func prepare(_ input: ContactInput) -> ContactConstraint {
                var cc = ContactConstraint()
                cc.a = input.solved.a
                cc.b = input.solved.b
                cc.found = input.found
                cc.friction = input.friction
                cc.restitution = input.restitution
                ContactSolver.prepare(&cc, input, sims: sims, states: states, softness: softness,
                                      staticSoftness: staticSoftness)
                return cc
            }
            for k in 0..<overflowCount { (constraints + k).initialize(to: prepare(ordered[k])) }
            wideLanes.withUnsafeBufferPointer { lanes in
                pool.forEachRange(wideCount, minimum: SplitSize.wideConstraints) { r in
                    for w in r {
                        let first = Int(wideFirst[w])
                        let wc = wide + w
                        // every lane is written whole, so the buffer needs no clearing (a 560-byte copy)
                        for lane in Int(lanes[w])..<4 { WideContact.padLane(wc, lane, dummy: dummy) }
                        for lane in 0..<Int(lanes[w]) {
                            let input = ordered + first + lane
                            WideContact.prepareLane(wc, lane, input, sims: sims, states: states,
                                                    softness: input.pointee.solved.isStaticPair ? staticSoftness : softness)
                        }
                    }
                }
            }
        }

        let jointIterations = max(1, min(def.jointIterations, 64))
        // The solved contacts' impulses in contact order (see `SolvedImpulses`).
        let impulses = solvedImpulseBuffer.reserve(count: max(1, solvedCount))
        let maxSpeed = maxLinearSpeed
        let push = maxPushSpeed
        let threshold = restitutionThreshold
        do {
            let cbase = constraints
            let wbase = wide
            let overflowContacts = 0..<overflowCount
            let pool = self.pool
            // one stage: the colour's joints, then its contacts (the overflow slot in order on this
            // thread; a colour's joints and wide contacts split across the pool, as a colour's
            // constraints share no dynamic body)
            let trash = Int32(awakeCount + 1)
            /// The joints of one colour: the overflow slot in order on this thread, a colour's joints
            /// split across the pool (they share no dynamic body, and write no other). The pass is
            /// chosen once per range, not per joint: a closure call per joint cost more than a tenth
            /// of a joint's solve.
            func jointStage(_ color: Int, _ pass: JointPass) {
                let lo = jointStart[color], n = jointStart[color + 1] - lo
                if n == 0 { return }
                func run(_ r: Range<Int>) {
                    switch pass {
                    case .warmStart: for k in r { JointSolver.warmStart(jointSims + k, states) }
                    case .solve: for k in r { JointSolver.solve(jointSims + k, states, ctx: ctx, useBias: true) }
                    case .relax: for k in r { JointSolver.solve(jointSims + k, states, ctx: ctx, useBias: false) }
                    }
                }
                if color == 0 || n < SplitSize.serialJoints {
                    run(lo..<(lo + n))
                } else {
                    pool.forEachRange(n, minimum: SplitSize.joints) { r in run((lo + r.lowerBound)..<(lo + r.upperBound)) }
                }
            }
            /// `wide` solves a range of wide constraints with its chunk's trash record: a range, not one
            /// constraint, per call, so the kernel's loop runs inside the closure with its captures in
            /// registers instead of a call per constraint.
            func stage(_ color: Int, joints pass: JointPass, overflow: (Int) -> Void, wide: @escaping (Range<Int>, Int32) -> Void) {
                jointStage(color, pass)
                if color == 0 {
                    for c in overflowContacts { overflow(c) }
                } else {
                    let lo = wideStart[color], n = wideStart[color + 1] - lo
                    pool.forEachChunk(n, minimum: SplitSize.wideSolve) { r, chunk in
                        wide((lo + r.lowerBound)..<(lo + r.upperBound), trash + Int32(chunk))
                    }
                }
            }
            profile.prepare = timer.lap()
            for substep in 0..<substeps {
                // integrate velocities
                pool.forEachRange(awakeCount, minimum: SplitSize.bodies) { r in
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
                    stage(color, joints: .warmStart,
                          overflow: { ContactSolver.warmStart(cbase + $0, states) },
                          wide: { r, t in for w in r { WideContactSolver.warmStart(wbase + w, states, trash: t) } })
                }
                // solve (extra joint passes first: a long chain needs more than one)
                for _ in 1..<jointIterations {
                    for color in 0..<colorCount { jointStage(color, .solve) }
                }
                for color in 0..<colorCount {
                    stage(color, joints: .solve,
                          overflow: { ContactSolver.solve(cbase + $0, states, invH: invH, useBias: true, maxPushSpeed: push) },
                          wide: { r, t in for w in r { WideContactSolver.solve(wbase + w, states, invH: invH, useBias: true, maxPushSpeed: push, trash: t) } })
                }
                // integrate positions
                pool.forEachRange(awakeCount, minimum: SplitSize.bodies) { r in
                    for k in r {
                        states[k].dq = states[k].dq.integrated(by: h * states[k].w)
                        states[k].dp += h * states[k].v
                    }
                }
                // relax
                for _ in 1..<jointIterations {
                    for color in 0..<colorCount { jointStage(color, .relax) }
                }
                // The last relax pass also stores the wide constraints' impulses (while each is in
                // cache) unless restitution, which comes after, changes them.
                let store = substep == substeps - 1 && !anyRestitution
                for color in 0..<colorCount {
                    stage(color, joints: .relax,
                          overflow: { ContactSolver.solve(cbase + $0, states, invH: invH, useBias: false, maxPushSpeed: push) },
                          wide: store ? { r, t in
                              for w in r {
                                  WideContactSolver.solve(wbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t)
                                  WideContactSolver.storeImpulses(wbase + w, into: impulses)
                              }
                          } : { r, t in
                              for w in r { WideContactSolver.solve(wbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t) }
                          })
                }
            }
            profile.solve = timer.lap()
            // restitution
            // Several passes: applied point by point, one pass leaves a two-point manifold (a box
            // landing flat) about 12 % short of e·v, because the first point's impulse tips the
            // body; the passes converge on both points and cost nothing where e = 0.
            if anyRestitution {
                for _ in 0..<4 {
                    for c in overflowContacts { ContactSolver.applyRestitution(cbase + c, states, threshold: threshold) }
                    for w in 0..<wideCount { WideContactSolver.applyRestitution(wbase + w, states, threshold: threshold, trash: trash) }
                }
            }
        }

        profile.restitution = timer.lap()
        // Store impulses for the next step's warm start: from the constraints (solve order) into
        // `SolvedImpulses` (contact order), then into the contacts front to back (see
        // `SolvedImpulses`). A non-finite impulse (a numerical blow-up the bodies were already
        // protected from in `finalizeBodies`) is not carried over.
        for k in 0..<overflowCount {
            let cc = constraints[k]
            impulses[Int(cc.found)] = SolvedImpulses(p0: PointImpulses(cc.p0), p1: PointImpulses(cc.p1))
        }
        if anyRestitution {
            // else the last relax pass stored them
            pool.forEachRange(wideCount, minimum: SplitSize.wideConstraints) { r in
                for w in r { WideContactSolver.storeImpulses(wide + w, into: impulses) }
            }
        }
        contacts.withUnsafeMutableBufferPointer { cbuf in
            let cp = cbuf.baseAddress!
            pool.forEachRange(solvedCount, minimum: SplitSize.storedContacts) { r in
                for k in r {
                    // Both points, without reading the record's point count: a load here waits on
                    // the record's cache line, stores need not. A one-point manifold's second point
                    // is unused, and its solved impulses are zero (zero mass).
                    let m = cp + Int(solvedIndices[k].contact)
                    m.pointee.manifold.p0.keep(impulses[k].p0)
                    m.pointee.manifold.p1.keep(impulses[k].p1)
                }
            }
        }
        joints.withUnsafeMutableBufferPointer { jj in
            jointList.withUnsafeBufferPointer { list in
                jointSlot.withUnsafeBufferPointer { slot in
                    let jp = jj.baseAddress!
                    for k in 0..<list.count { JointSolver.storeImpulses(jointSims + Int(slot[k]), into: jp + Int(list[k])) }
                }
            }
        }

        profile.store = timer.lap()
        finalizeBodies(states: states, dt: dt, timer: &timer)
    }

    /// Writes the solver's results back: velocities, centre of mass, rotation, origin transform; the
    /// sleep timer; shape boxes (fat boxes grow only when a shape leaves them, so resting bodies never
    /// touch the grid); and continuous collision for bodies that moved further than their size allows.
    func finalizeBodies(states: UnsafeMutablePointer<BodyState>, dt: Float, timer: inout PhaseTimer) {
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
        profile.finalize = timer.lap()
        if !fastBodies.isEmpty { solveContinuous(fastBodies) }
        profile.continuous = timer.lap()
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

/// Which joint pass a solver stage runs.
enum JointPass {
    case warmStart
    /// With the position-error bias.
    case solve
    /// Without it, after the positions moved.
    case relax
}
