import Foundation

extension World {
    // The soft step's phases, in the order `step` calls them: prepare joints (with the awake
    // bodies' records), prepare contacts, the sub-steps (integrate velocities → warm start → solve
    // with position-error bias → integrate positions → relax without it), restitution, store
    // impulses for the next step's warm start, finalise the bodies.

    /// The awake bodies' records, then the joints with an awake body: coloured, ordered and
    /// prepared into their sims.
    func prepareJoints(_ ctx: inout StepContext) {
        let awakeCount = ctx.awakeCount
        let h = ctx.h
        let states = ctx.states, sims = ctx.sims
        let g = gravity
        let bp = ctx.bodies
        // the shared zero record of static bodies, and the threads' trash records
        let records = StepContext.stateCount(awake: awakeCount, threads: pool.threadCount)
        for k in awakeCount..<records { states[k] = BodyState() }
        sims[awakeCount] = BodyStepData()
        sets.awake.withUnsafeBufferPointer { awakeBuffer in
            let awake = awakeBuffer.baseAddress!
            // each body writes only its own records
            pool.forEachRange(awakeCount, minimum: SplitSize.bodies) { r in
                for k in r {
                    // through the pointer, writing back only the two fields that change (copying the
                    // record out and back wrote all of it)
                    let b0 = bp + Int(awake[k])
                    b0.pointee.center0 = b0.pointee.center
                    b0.pointee.rotation0 = b0.pointee.transform.q
                    let b = b0.pointee   // only the fields read below are loaded
                    states[k] = BodyState(v: b.linearVelocity, w: b.angularVelocity)
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
        }

        // The joints with an awake body, their colours and their places in solve order: kept from
        // the step that chose them for as long as nothing they depend on changes (see
        // `KeptJointGraph`), else chosen again.
        if !jointGraph.isCurrent {
            jointGraph = orderJoints()
        } else {
            assert(orderJoints() == jointGraph, "a kept joint graph differs from the one chosen afresh")
        }
        let jointList = jointGraph.list, jointSlot = jointGraph.slot, jointStart = jointGraph.start
        let dummy = ctx.dummy
        let jj = ctx.joints
        // Each awake joint is prepared into the `JointSim` at its place in solve order, so the
        // sub-steps read the sims front to back. Preparing and storing run in joint order: the
        // joint records are then read front to back, and the scattered accesses are to the sims.
        let jointSims = scratch.jointSims.reserve(count: max(1, jointList.count))
        let jctx = ctx.joint
        jointList.withUnsafeBufferPointer { list in
            jointSlot.withUnsafeBufferPointer { slot in
                // each joint reads its record and the bodies, and writes only its own sim
                pool.forEachRange(list.count, minimum: SplitSize.bodies) { r in
                    for k in r {
                        JointSolver.prepare(jj + Int(list[k]), into: jointSims + Int(slot[k]), bodies: bp, joints: jj,
                                            sims: sims, dummy: dummy, ctx: jctx)
                    }
                }
            }
        }
        ctx.jointList = jointList
        ctx.jointSlot = jointSlot
        ctx.jointStart = jointStart
        ctx.jointSims = jointSims
    }

    /// The joints with an awake body, coloured as they are found (in joint order), around the
    /// colours their bodies' touching contacts keep (`Body.contactColors`), and their places in
    /// solve order: colour by colour, the overflow slot first, within a colour in joint order.
    /// (Not grouped by rows as the contacts are (`ColorGroups`): the graph is kept while the
    /// joints' bodies stay awake, but their rows move whenever any body joins or leaves the awake
    /// list, so a grouping would go stale; joint_grid's joints are in row order anyway.)
    /// From the world as it is (the bodies' awake indices and types, the joints, the contacts'
    /// colours), so `validate` can choose them afresh too.
    func orderJoints() -> KeptJointGraph {
        let bp = bodies.base, jj = joints.base
        let awakeCount = sets.awake.count
        let dummy = Int32(awakeCount)   // every body that is not awake: never dynamic, holds no colour
        let coloring = ConstraintColoring(bodyCount: awakeCount)
        defer { coloring.release() }
        var jointList: [Int32] = []
        var jointColors: [Int32] = []
        for ji in 0..<joints.count where jj[ji].isAlive {
            let ba = bp + Int(jj[ji].bodyA), bb = bp + Int(jj[ji].bodyB)
            let ia = ba.pointee.awakeIndex, ib = bb.pointee.awakeIndex
            if ia < 0 && ib < 0 { continue }
            jointList.append(Int32(ji))
            let a = ia >= 0 ? ia : dummy, b = ib >= 0 ? ib : dummy
            let dynamicA = ia >= 0 && ba.pointee.type == .dynamic, dynamicB = ib >= 0 && bb.pointee.type == .dynamic
            let contactsA = ba.pointee.contactColors, contactsB = bb.pointee.contactColors
            let color = coloring.assign(a, b, dynamicA: dynamicA, dynamicB: dynamicB, contactsA: contactsA, contactsB: contactsB)
            jointColors.append(color)
        }
        let colorCount = ConstraintColoring.colorCount
        var jointStart = [Int](repeating: 0, count: colorCount + 1)
        for c in jointColors { jointStart[Int(c) + 1] += 1 }
        for i in 0..<colorCount { jointStart[i + 1] += jointStart[i] }
        var jointSlot = jointColors   // becomes each found joint's place in solve order
        var fill = jointStart
        for k in 0..<jointSlot.count {
            let c = Int(jointSlot[k])
            jointSlot[k] = Int32(fill[c])
            fill[c] += 1
        }
        return KeptJointGraph(isCurrent: true, list: jointList, slot: jointSlot, start: jointStart)
    }

    /// The touching contacts with an awake body, in three stages: found with their colours
    /// (`scanContacts`), put in solve order (`sortContacts`), the impact pass for elastic rows,
    /// then prepared (`prepareContactConstraints`: the overflow slot as scalar constraints, each
    /// colour `WideLane.count` lanes wide).
    ///
    /// Graph colouring puts the constraints in Box2D's solve order (and is what lets a colour be
    /// solved several lanes wide, or in parallel): overflow first, then colour by colour, joints
    /// before contacts. A contact's colour is chosen when it begins touching and kept
    /// (`World.colorTouchingContact`), so a step only reads it. Coloured contacts are prepared
    /// straight into their wide constraint and their impulses stored from it: no scalar copy
    /// of them is ever made.
    func prepareContacts(_ ctx: inout StepContext) {
        let scan = scanContacts(&ctx)
        recolorOverflow(scan)
        sortContacts(&ctx, scan)
        if ctx.anyRestitution {
            // elastic impacts along rows of touching bodies, from the velocities the step starts with
            resolveImpactChains(ctx.solvedIndices!, count: ctx.solvedCount, states: ctx.states, sims: ctx.sims,
                                bodyCount: ctx.awakeCount, dt: ctx.dt)
        }
        prepareContactConstraints(&ctx)
    }

    /// What the scan found, block by block: the contacts it packed at the front of each block's
    /// part of `SolverScratch.scannedContacts`, and how many of each colour.
    struct ContactScan {
        let packed: UnsafeMutablePointer<SolvedContact>
        /// Per block: how many it packed.
        let found: [Int]
        /// Per block and bucket (`block * buckets.count + bucket`): how many.
        let counts: UnsafeMutablePointer<Int>
        /// The buckets the contacts are counted and sorted in (colour and body group).
        let buckets: ColorGroups
        /// Per block, at the front of its part: where in `packed` its overflow contacts with a
        /// dynamic body are (`overflowCounts[block]` of them).
        let overflow: UnsafeMutablePointer<Int32>
        let overflowCounts: [Int]
        func release() { counts.deallocate() }
    }

    /// Between the scan and the sort, serially, in contact order: each contact in the overflow set
    /// takes a colour if one has come free on its bodies since it began touching. A kept graph
    /// fragments (a body's colours come free in the order its touches end), and without this a
    /// contact that found no colour once stayed in the overflow set, solved one by one on the
    /// caller, for as long as it touched: in smash 1.7 % of the constraints, against 0.16 % when
    /// every step chose colours afresh. The overflow set is small, so this costs little.
    func recolorOverflow(_ scan: ContactScan) {
        let bucketCount = scan.buckets.count, scanBlock = SplitSize.orderBlock
        for block in 0..<scan.overflowCounts.count where scan.overflowCounts[block] > 0 {
            let first = block * scanBlock
            for k in first..<(first + scan.overflowCounts[block]) {
                let n = Int(scan.overflow[k])
                let ci = scan.packed[n].contact
                colorTouchingContact(ci)
                let color = contacts[Int(ci)].color
                guard color != 0 else { continue }
                scan.packed[n].color = color
                scan.counts[block * bucketCount] -= 1
                scan.counts[block * bucketCount + scan.buckets.bucket(color, scan.packed[n].group)] += 1
            }
        }
    }

    /// Stage 1 of `prepareContacts`, in parallel over fixed blocks of contact slots: which contacts
    /// the step solves (touching, with an awake body), with their bodies' solver indices and their
    /// colours, packed at the front of each block's part of the scan buffer, and counted per
    /// colour. It reads the slots' keys (`ContactKey`) and the bodies' places in the awake list
    /// (`SolverScratch.awakeSlots`, filled here), not the 200-byte contact records nor the bodies'.
    func scanContacts(_ ctx: inout StepContext) -> ContactScan {
        let dummy = ctx.dummy
        let keys = contactKeys.base
        let awakeSlots = scratch.awakeSlots.reset(count: max(1, bodies.count), to: -1)
        sets.awake.withUnsafeBufferPointer { awake in
            for k in 0..<ctx.awakeCount { awakeSlots[Int(awake[k])] = Int32(k) }
        }
        let maxContacts = ctx.contactSlots
        let buckets = ColorGroups(groups: pool.threadCount, awakeCount: ctx.awakeCount)
        let bucketCount = buckets.count
        let packed = scratch.scannedContacts.reserve(count: max(1, maxContacts))
        let scanBlock = SplitSize.orderBlock
        let scanBlocks = (maxContacts + scanBlock - 1) / scanBlock
        let found = UnsafeMutablePointer<Int>.allocate(capacity: max(1, scanBlocks))
        defer { found.deallocate() }
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: max(1, scanBlocks * bucketCount))
        counts.initialize(repeating: 0, count: max(1, scanBlocks * bucketCount))
        let overflow = scratch.overflowFound.reserve(count: max(1, maxContacts))
        let overflowFound = UnsafeMutablePointer<Int>.allocate(capacity: max(1, scanBlocks))
        defer { overflowFound.deallocate() }
        pool.run(blocks: scanBlocks) { block in
            let first = block * scanBlock
            let count = counts + block * bucketCount
            var n = first, o = first
            for ci in first..<min(maxContacts, first + scanBlock) {
                let c = keys[ci]
                guard c.isAlive, c.isTouching else { continue }
                let ia = awakeSlots[Int(c.bodyA)], ib = awakeSlots[Int(c.bodyB)]
                if ia < 0 && ib < 0 { continue }
                let a = ia >= 0 ? ia : dummy, b = ib >= 0 ? ib : dummy
                packed[n] = SolvedContact(contact: Int32(ci), a: a, b: b, isStaticPair: c.isStaticPair, color: c.color)
                packed[n].group = buckets.group(a, b)
                count[buckets.bucket(c.color, packed[n].group)] += 1
                if c.color == 0 && c.hasDynamicBody {
                    overflow[o] = Int32(n)
                    o += 1
                }
                n += 1
            }
            found[block] = n - first
            overflowFound[block] = o - first
        }
        let perBlock = Array(UnsafeBufferPointer(start: found, count: scanBlocks))
        let overflowPerBlock = Array(UnsafeBufferPointer(start: overflowFound, count: scanBlocks))
        let overflowList = (start: overflow, counts: overflowPerBlock)
        return ContactScan(packed: packed, found: perBlock, counts: counts, buckets: buckets,
                           overflow: overflowList.start, overflowCounts: overflowList.counts)
    }

    /// Stage 2 of `prepareContacts`: the scanned contacts into solve order (`ctx.orderedContacts`)
    /// by a counting sort over the scan's blocks: the per-block counts give each block its first
    /// place in every colour (in block order, the places a serial pass would give) and its first
    /// place in contact order, and the blocks then copy in parallel, into solve order and,
    /// compacted, into contact order (`ctx.solvedIndices`, which `updateSleep` walks too). Within
    /// a block the contact records are read front to back (see `ContactInput`).
    func sortContacts(_ ctx: inout StepContext, _ scan: ContactScan) {
        defer { scan.release() }
        let cp = ctx.contacts
        let colorCount = ConstraintColoring.colorCount
        let blocks = scan.found.count
        let places = scan.counts   // counts become first places, in place
        let buckets = scan.buckets, bucketCount = buckets.count, groups = buckets.groups
        var contactStart = [Int](repeating: 0, count: colorCount + 1)
        for block in 0..<blocks {
            for c in 0..<colorCount {
                for g in 0..<groups { contactStart[c + 1] += places[block * bucketCount + c * groups + g] }
            }
        }
        for c in 0..<colorCount { contactStart[c + 1] += contactStart[c] }
        // within a colour, group by group; within a group, in block order (contact order)
        var next = 0
        for bucket in 0..<bucketCount {
            for block in 0..<blocks {
                let n = places[block * bucketCount + bucket]
                places[block * bucketCount + bucket] = next
                next += n
            }
        }
        var firstFound = [Int](repeating: 0, count: blocks + 1)
        for block in 0..<blocks { firstFound[block + 1] = firstFound[block] + scan.found[block] }
        let solvedCount = firstFound[blocks]
        let ordered = scratch.orderedContacts.reserve(count: max(1, solvedCount))
        let solved = scratch.solvedContacts.reserve(count: max(1, solvedCount))
        let packed = scan.packed
        let scanBlock = SplitSize.orderBlock
        // whether any solved contact is elastic, per block (read here, where the record is read anyway)
        let elastic = UnsafeMutablePointer<Bool>.allocate(capacity: max(1, blocks))
        defer { elastic.deallocate() }
        firstFound.withUnsafeBufferPointer { firstFound in
            scan.found.withUnsafeBufferPointer { found in
                pool.run(blocks: blocks) { block in
                    let fill = places + block * bucketCount
                    var k = firstFound[block]
                    var anyElastic = false
                    let first = block * scanBlock
                    for i in first..<(first + found[block]) {
                        let sc = packed[i]
                        let bucket = buckets.bucket(sc.color, sc.group)
                        let input = ContactInput(sc, found: k, cp + Int(sc.contact))
                        if input.restitution != 0 { anyElastic = true }
                        (ordered + fill[bucket]).initialize(to: input)
                        fill[bucket] += 1
                        solved[k] = sc
                        k += 1
                    }
                    elastic[block] = anyElastic
                }
            }
        }
        ctx.anyRestitution = (0..<blocks).contains { elastic[$0] }
        ctx.solvedIndices = solved
        ctx.solvedCount = solvedCount
        ctx.contactStart = contactStart
        ctx.orderedContacts = ordered
        scratch.solvedContactCount = solvedCount
        let jointStart = ctx.jointStart
        lastColorCounts = (0..<colorCount).map { contactStart[$0 + 1] - contactStart[$0] + jointStart[$0 + 1] - jointStart[$0] }
    }

    /// Stage 4 of `prepareContacts`: the constraints, from the contacts in solve order. Colours 1…
    /// are `WideLane.count` lanes wide (`ctx.wide`, in parallel); the overflow slot stays scalar
    /// (`ctx.constraints`).
    func prepareContactConstraints(_ ctx: inout StepContext) {
        let states = ctx.states, sims = ctx.sims
        let dummy = ctx.dummy
        let ordered = ctx.orderedContacts!
        let contactStart = ctx.contactStart
        let colorCount = ConstraintColoring.colorCount
        // contacts per wide constraint: all its lanes, fewer only where a test asks (`SolverScratch.wideLanesFilled`)
        let filled = max(1, min(WideLane.count, scratch.wideLanesFilled))
        var wideStart = [Int](repeating: 0, count: colorCount + 1)   // wide constraints of colour c: wideStart[c]..<wideStart[c + 1]
        for color in 1..<colorCount {
            wideStart[color + 1] = wideStart[color] + (contactStart[color + 1] - contactStart[color] + filled - 1) / filled
        }
        let wideCount = wideStart[colorCount]
        let overflowCount = contactStart[1]
        let constraints = scratch.overflow.reserve(count: max(1, overflowCount))
        let wide = scratch.wide.reserve(count: max(1, wideCount))
        let extras = scratch.wideExtras.reserve(count: max(1, wideCount))
        let wideFirst = scratch.wideFirst.reserve(count: max(1, wideCount))
        // Each wide constraint's first contact in the solve order and its number of lanes (1…`filled`).
        var wideLanes = [UInt8](repeating: 0, count: wideCount)
        for color in 1..<colorCount {
            var k = contactStart[color]
            for w in wideStart[color]..<wideStart[color + 1] {
                wideFirst[w] = Int32(k)
                wideLanes[w] = UInt8(min(filled, contactStart[color + 1] - k))
                k += filled
            }
        }
        let softness = ctx.softness, staticSoftness = ctx.staticSoftness, blockSolve = def.blockSolve
        for k in 0..<overflowCount {
            let input = ordered[k]
            var cc = ContactConstraint()
            cc.a = input.solved.a
            cc.b = input.solved.b
            cc.found = input.found
            cc.friction = input.friction
            cc.restitution = input.restitution
            ContactSolver.prepare(&cc, input, sims: sims, states: states, softness: softness, staticSoftness: staticSoftness,
                                  block: blockSolve)
            (constraints + k).initialize(to: cc)
        }
        wideLanes.withUnsafeBufferPointer { lanes in
            pool.forEachRange(wideCount, minimum: WideLane.prepareSplit) { r in
                for w in r {
                    let first = Int(wideFirst[w])
                    let wc = wide + w, xc = extras + w
                    if Int(lanes[w]) == WideLane.count {
                        WideContact.prepareAll(
                            wc, xc, ordered + first, sims: sims, states: states, softness: softness,
                            staticSoftness: staticSoftness, block: blockSolve)
                        continue
                    }
                    // every lane is written whole, so the buffers need no clearing
                    for lane in Int(lanes[w])..<WideLane.count { WideContact.padLane(wc, xc, lane, dummy: dummy) }
                    for lane in 0..<Int(lanes[w]) {
                        let input = ordered + first + lane
                        WideContact.prepareLane(wc, xc, lane, input, sims: sims, states: states,
                                                softness: input.pointee.solved.isStaticPair ? staticSoftness : softness,
                                                block: blockSolve)
                    }
                }
            }
        }
        ctx.overflowCount = overflowCount
        ctx.constraints = constraints
        ctx.wideStart = wideStart
        ctx.wideCount = wideCount
        ctx.wide = wide
        ctx.wideExtras = extras
        ctx.impulses = scratch.solvedImpulses.reserve(count: max(1, ctx.solvedCount))
    }

    /// The sub-steps, each a sequence of stages; a stage is one colour's joints, then its contacts
    /// (the overflow slot in order on this thread; a colour's joints and wide contacts split across
    /// the pool, as a colour's constraints share no dynamic body).
    func solveSubsteps(_ ctx: StepContext) {
        let h = ctx.h, invH = ctx.invH
        let states = ctx.states, sims = ctx.sims
        let jointIterations = max(1, min(def.jointIterations, 64))
        let impulses = ctx.impulses!
        let maxSpeed = maxLinearSpeed
        // the turn cap as an angular speed (rad/s); NaN or a negative cap means none
        let capPerStep = def.maxRotationPerStep
        let maxSpin = capPerStep >= 0 ? capPerStep / ctx.dt : .infinity
        let push = maxPushSpeed
        let block = def.blockSolve
        let wbase = ctx.wide!, xbase = UnsafePointer(ctx.wideExtras!)
        // The stages' closures, made once a step: an escaping closure that captures is a heap
        // allocation each time one is formed: formed per colour, stage and sub-step (empty colours
        // too), they and their wrappers were about 800 allocations and frees a step (callgrind,
        // ui_chains).
        let warmStartWide: (Range<Int>, Int32) -> Void = { r, t in
            for w in r { WideContactSolver.warmStart(wbase + w, states, trash: t) }
        }
        let solveWide: (Range<Int>, Int32) -> Void = block
            ? { r, t in for w in r { WideContactSolver.solveBlock(wbase + w, xbase + w, states, invH: invH, useBias: true, maxPushSpeed: push, trash: t) } }
            : { r, t in for w in r { WideContactSolver.solve(wbase + w, states, invH: invH, useBias: true, maxPushSpeed: push, trash: t) } }
        let relaxWide: (Range<Int>, Int32) -> Void = block
            ? { r, t in for w in r { WideContactSolver.solveBlock(wbase + w, xbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t) } }
            : { r, t in for w in r { WideContactSolver.solve(wbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t) } }
        let relaxAndStoreWide: (Range<Int>, Int32) -> Void = block
            ? { r, t in
                for w in r {
                    WideContactSolver.solveBlock(wbase + w, xbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t)
                    WideContactSolver.storeImpulses(wbase + w, xbase + w, into: impulses)
                }
            }
            : { r, t in
                for w in r {
                    WideContactSolver.solve(wbase + w, states, invH: invH, useBias: false, maxPushSpeed: push, trash: t)
                    WideContactSolver.storeImpulses(wbase + w, xbase + w, into: impulses)
                }
            }
        let integrateVelocities: (Range<Int>) -> Void = { r in
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
        let integratePositions: (Range<Int>) -> Void = { r in
            for k in r {
                var w = states[k].w
                if abs(w) > maxSpin {
                    w = w > 0 ? maxSpin : -maxSpin
                    states[k].w = w
                }
                states[k].dq = states[k].dq.integrated(by: h * w)
                states[k].dp += h * states[k].v
            }
        }
        let kernels = SubstepKernels(
            integrateVelocities: integrateVelocities, integratePositions: integratePositions,
            warmStartWide: warmStartWide, solveWide: solveWide, relaxWide: relaxWide,
            relaxAndStoreWide: relaxAndStoreWide)
        runSubstepProgram(ctx, jointIterations: jointIterations, kernels)
    }

    /// The sub-steps as one program for the pool (`WorkerPool.runProgram`): per sub-step, integrate
    /// velocities; warm start, colour by colour (each colour's joints, then its contacts; colour 0
    /// is the overflow, in order on one thread); extra joint passes, then solve, colour by colour;
    /// integrate positions; the same for relax, whose last pass also stores the wide constraints'
    /// impulses (while each is in cache) unless restitution, which comes after, changes them.
    /// A stage's pieces touch disjoint bodies, so the result does not depend on who runs them; on
    /// the caller alone each stage runs whole, in order. With the workers, the threads meet once
    /// at each stage's end instead of a stage being published at a time.
    private func runSubstepProgram(_ ctx: StepContext, jointIterations: Int, _ kernels: SubstepKernels) {
        let colorCount = ConstraintColoring.colorCount
        let jointStart = ctx.jointStart, wideStart = ctx.wideStart
        let overflowCount = ctx.overflowCount
        // A stage: what it runs, its first item, its items and the items a piece takes.
        var ops: [SubstepOp] = [], bases: [Int] = [], counts: [Int] = [], units: [Int] = []
        func add(_ op: SubstepOp, _ base: Int, _ count: Int, _ unit: Int) {
            guard count > 0 else { return }
            ops.append(op); bases.append(base); counts.append(count); units.append(unit)
        }
        func joints(_ color: Int, _ pass: JointPass) {
            let lo = jointStart[color], n = jointStart[color + 1] - lo
            // the overflow colour's joints in order, on one thread; a small colour on one thread
            add(.joints(pass), lo, n, color == 0 || n < SplitSize.serialJoints ? n : SplitSize.joints)
        }
        func wideCount(_ color: Int) -> Int { wideStart[color + 1] - wideStart[color] }
        // One pass over the colours: each colour's joints, then its contacts. A run of small
        // colours (tumbler: a dozen of one or two contacts each) is one stage, run whole on one
        // thread: colour after colour in memory order, so in the same order as stage by stage,
        // without the threads meeting after each (a meeting costs about as much as solving 16
        // four-wide constraints). Colours after the first in a run have no joints, which would
        // come between.
        func colors(_ jointPass: JointPass, _ pass: ContactPass) {
            joints(0, jointPass)
            add(.overflow(pass), 0, overflowCount, overflowCount)
            var color = 1
            while color < colorCount {
                joints(color, jointPass)
                var end = color + 1, total = wideCount(color)
                if total <= WideLane.solveUnit {
                    while end < colorCount && jointStart[end + 1] == jointStart[end]
                        && total + wideCount(end) <= SplitSize.smallColorRun {
                        total += wideCount(end)
                        end += 1
                    }
                }
                let unit = end > color + 1 ? total : solvePiece(total)
                add(.wide(pass), wideStart[color], total, unit)
                color = end
            }
        }
        let bodyUnit = 64
        for substep in 0..<ctx.substeps {
            add(.integrateVelocities, 0, ctx.awakeCount, bodyUnit)
            colors(.warmStart, .warmStart)
            for _ in 1..<jointIterations { for color in 0..<colorCount { joints(color, .solve) } }
            colors(.solve, .solve)
            add(.integratePositions, 0, ctx.awakeCount, bodyUnit)
            for _ in 1..<jointIterations { for color in 0..<colorCount { joints(color, .relax) } }
            let store = substep == ctx.substeps - 1 && !ctx.anyRestitution
            colors(.relax, store ? .relaxAndStore : .relax)
        }
        let states = ctx.states, jointSims = ctx.jointSims!, jctx = ctx.joint
        let cbase = ctx.constraints!
        let trash = (0..<pool.threadCount).map { ctx.trash(thread: $0) }
        let invH = ctx.invH, push = maxPushSpeed, block = def.blockSolve
        // Only the contact colours wait for a share's owner: their shares follow the row groups,
        // so a piece's rows are in its owner's cache. Joints are not grouped (`orderJoints`) and a
        // body stage is cheap per item: there a finished thread helps with whatever is left.
        let patient = ops.map { if case .wide = $0 { true } else { false } }
        pool.runProgram(counts: counts, units: units, patient: patient) { [ops, bases] stage, r, thread in
            let base = bases[stage]
            let range = (base + r.lowerBound)..<(base + r.upperBound)
            switch ops[stage] {
            case .integrateVelocities: kernels.integrateVelocities(range)
            case .integratePositions: kernels.integratePositions(range)
            case .joints(.warmStart): for k in range { JointSolver.warmStart(jointSims + k, states) }
            case .joints(.solve): for k in range { JointSolver.solve(jointSims + k, states, ctx: jctx, useBias: true) }
            case .joints(.relax): for k in range { JointSolver.solve(jointSims + k, states, ctx: jctx, useBias: false) }
            case .overflow(.warmStart): for c in range { ContactSolver.warmStart(cbase + c, states) }
            case .overflow(let pass):
                let bias = pass == .solve
                for c in range {
                    ContactSolver.solve(cbase + c, states, invH: invH, useBias: bias, maxPushSpeed: push, block: block)
                }
            case .wide(.warmStart): kernels.warmStartWide(range, trash[thread])
            case .wide(.solve): kernels.solveWide(range, trash[thread])
            case .wide(.relax): kernels.relaxWide(range, trash[thread])
            case .wide(.relaxAndStore): kernels.relaxAndStoreWide(range, trash[thread])
            }
        }
    }

    /// The wide constraints a thread claims at a time from a colour of `count` in the sub-steps'
    /// program: each thread's share in about two pieces, within `WideLane.solveUnit` and
    /// `WideLane.solvePieceLimit`. Any split gives the same bits (a colour's pieces touch disjoint
    /// bodies); fewer claims cost less (`SplitSize.wideSolvePieceLimit`).
    private func solvePiece(_ count: Int) -> Int {
        min(WideLane.solvePieceLimit, max(WideLane.solveUnit, count / (2 * pool.threadCount)))
    }

    /// Restitution, after the sub-steps, from the normal velocities the step began with.
    ///
    /// Several passes: applied point by point, one pass leaves a two-point manifold (a box landing
    /// flat) about 12 % short of e·v, because the first point's impulse tips the body; the passes
    /// converge on both points and cost nothing where e = 0.
    func applyRestitution(_ ctx: StepContext) {
        guard ctx.anyRestitution else { return }
        let states = ctx.states, threshold = restitutionThreshold, trash = ctx.trash(thread: 0)
        let cbase = ctx.constraints!, wbase = ctx.wide!, xbase = ctx.wideExtras!
        for _ in 0..<4 {
            for c in 0..<ctx.overflowCount { ContactSolver.applyRestitution(cbase + c, states, threshold: threshold) }
            for w in 0..<ctx.wideCount { WideContactSolver.applyRestitution(wbase + w, xbase + w, states, threshold: threshold, trash: trash) }
        }
    }

    /// Stores impulses for the next step's warm start: from the constraints (solve order) into
    /// `SolvedImpulses` (contact order), then into the contacts front to back (see
    /// `SolvedImpulses`); the joints' from their sims. A non-finite impulse (a numerical blow-up the
    /// bodies were already protected from in `finalizeBodies`) is not carried over.
    func storeImpulses(_ ctx: StepContext) {
        let impulses = ctx.impulses!
        let constraints = ctx.constraints!, wide = ctx.wide!, extras = ctx.wideExtras!
        for k in 0..<ctx.overflowCount {
            let cc = constraints[k]
            impulses[Int(cc.found)] = SolvedImpulses(p0: PointImpulses(cc.p0), p1: PointImpulses(cc.p1))
        }
        if ctx.anyRestitution {
            // else the last relax pass stored them
            pool.forEachRange(ctx.wideCount, minimum: WideLane.prepareSplit) { r in
                for w in r { WideContactSolver.storeImpulses(wide + w, extras + w, into: impulses) }
            }
        }
        let cp = ctx.contacts
        let solvedIndices = ctx.solvedIndices!
        pool.forEachRange(ctx.solvedCount, minimum: SplitSize.storedContacts) { r in
            for k in r {
                // Both points, without reading the record's point count: a load here waits on
                // the record's cache line, stores need not. A one-point manifold's second point
                // is unused, and its solved impulses are zero (zero mass).
                let m = cp + Int(solvedIndices[k].contact)
                m.pointee.manifold.p0.keep(impulses[k].p0)
                m.pointee.manifold.p1.keep(impulses[k].p1)
            }
        }
        let jp = ctx.joints, jointSims = ctx.jointSims!
        ctx.jointList.withUnsafeBufferPointer { list in
            ctx.jointSlot.withUnsafeBufferPointer { slot in
                // each joint writes only its own record
                pool.forEachRange(list.count, minimum: SplitSize.bodies) { r in
                    for k in r { JointSolver.storeImpulses(jointSims + Int(slot[k]), into: jp + Int(list[k])) }
                }
            }
        }
    }

    /// Writes the solver's results back: velocities, centre of mass, rotation, origin transform, and
    /// the sleep timer. Returns the bodies that moved further than their size allows (or, with
    /// `WorldDef.sweepPastSpeculativeReach`, than the speculative distance), for continuous collision.
    func finalizeBodies(_ ctx: StepContext) -> [Int32] {
        let awakeCount = ctx.awakeCount
        let states = ctx.states
        let dt = ctx.dt
        let sleepVel = sleepThreshold
        let enableSleep = def.enableSleep
        let continuous = def.enableContinuous
        // travel past which a body is swept besides half its inner size (`WorldDef.sweepPastSpeculativeReach`)
        let reach: Float = def.sweepPastSpeculativeReach ? speculativeDistance : .infinity
        let bp = ctx.bodies
        // the moved bodies' poses, when recorded (`MovedPoses`): body k's at k
        let poses = moves.isRecording ? moves.poses.reserve(count: max(1, awakeCount)) : nil
        // In parallel: each body writes only its own record, and each chunk lists its fast bodies,
        // joined in chunk order (ascending, whatever the chunks).
        let chunks = pool.maximumChunks
        let fastLists = UnsafeMutablePointer<[Int32]>.allocate(capacity: chunks)
        fastLists.initialize(repeating: [], count: chunks)
        defer { fastLists.deinitialize(count: chunks); fastLists.deallocate() }
        sets.awake.withUnsafeBufferPointer { awakeBuffer in
            let awake = awakeBuffer.baseAddress!
            pool.forEachChunk(awakeCount, minimum: SplitSize.bodies) { r, chunk in
                var fast: [Int32] = []
                for k in r {
                    let bi = Int(awake[k])
                    let b = bp + bi
                    // whichever way the body leaves this iteration, with its pose as it ends
                    defer {
                        if let poses {
                            poses[k] = MovedBody(userData: b.pointee.userData, transform: b.pointee.transform)
                        }
                    }
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
                    // the applied force and torque stay until the step ends: `updateSleep` weighs
                    // them, then `clearAppliedForces` clears them
                    if enableSleep {
                        let sleepSpeed = max(v.length, b.pointee.maxExtent * abs(w))
                        if !b.pointee.enableSleep || sleepSpeed > sleepVel { b.pointee.sleepTime = 0 } else { b.pointee.sleepTime += dt }
                    }
                    b.pointee.isFast = false
                    if continuous && b.pointee.type == .dynamic && b.pointee.minExtent > 0 {
                        let travel = st.dp.length
                        if travel > min(0.5 * b.pointee.minExtent, reach) { fast.append(Int32(bi)); b.pointee.isFast = true }
                    }
                }
                fastLists[chunk] = fast
            }
        }
        var fastBodies: [Int32] = []
        for c in 0..<chunks { fastBodies.append(contentsOf: fastLists[c]) }
        return fastBodies
    }

    /// Brings the recorded poses of `fast` (`MovedPoses`) up to date after continuous collision
    /// moved some of them back along their paths; `fast` are awake bodies, at their awake indices.
    func recordMovedPoses(of fast: [Int32]) {
        guard moves.isRecording else { return }
        let poses = moves.poses.pointer, bp = bodies.base
        for bi in fast {
            let b = bp[Int(bi)]
            poses[Int(b.awakeIndex)].transform = b.transform
        }
    }

    /// The awake bodies' shape boxes, after continuous collision settled their poses. Fat boxes grow
    /// only when a shape leaves them, so resting bodies never touch the grid; a grown one is queued
    /// for the next pair search.
    func updateShapeBoxes(_ ctx: StepContext) {
        let bp = ctx.bodies, sp = ctx.shapes
        // In parallel: a body's shapes are its own; each chunk lists the shapes whose fat box grew,
        // joined in chunk order (the order of a serial pass).
        let margin = aabbMargin, spec = speculativeDistance
        // A shape that meets nothing is queued only for the query grid, and only once a query has
        // built it: the pair search would drop it unread (10 000 items in no collision behaviour
        // were 10 000 queued and dropped a step, a cache miss each).
        let inUse = broadPhase.categoriesInUse
        let queueInert = broadPhase.queryIndex.isBuilt && !broadPhase.queryIndex.movableStale
        // Until then nothing reads such a shape's boxes between steps but the queries and a
        // snapshot, which bring them up to date first (`refreshStaleBoxes`), and its joining the
        // pair search, which settles them (`settleBoxes`): the step leaves them behind. ui_fields
        // (10 000 items under fields, none colliding) spent 28 % of its step on boxes no one read.
        let skipsInert = !queueInert
        if skipsInert && ctx.awakeCount > 0 { hasStaleBoxes = true }
        // Every moving shape meets nothing (a field of particles, Box2D's joint grid): no pass.
        if skipsInert && !broadPhase.proxyListDirty && broadPhase.movableProxies.isEmpty { return }
        let chunks = pool.maximumChunks
        let movedLists = UnsafeMutablePointer<[Int32]>.allocate(capacity: chunks)
        movedLists.initialize(repeating: [], count: chunks)
        defer { movedLists.deinitialize(count: chunks); movedLists.deallocate() }
        sets.awake.withUnsafeBufferPointer { awakeBuffer in
            let awake = awakeBuffer.baseAddress!
            pool.forEachChunk(ctx.awakeCount, minimum: SplitSize.bodies) { r, chunk in
                var moved: [Int32] = []
                for k in r {
                    let bi = Int(awake[k])
                    let xf = bp[bi].transform
                    var s = bp[bi].headShape
                    while s >= 0 {
                        let sh = sp + Int(s)
                        let inert = BroadPhase.meetsNothing(sh.pointee.filter, inUse: inUse)
                        if skipsInert && inert {
                            s = sh.pointee.nextShape
                            continue
                        }
                        // quadrilaterals and triangles inline: a call per shape was 3.9 % of large_pyramid
                        let box = sh.pointee.kind == .polygon && sh.pointee.polygon!.count <= 4
                            ? Shape.box(ofQuad: sh.pointee.polygon!.inline, xf) : sh.pointee.computeAABB(xf)
                        sh.pointee.aabb = box
                        if !World.fatBox(sh.pointee.fatAABB, covers: box, speculative: spec) {
                            sh.pointee.fatAABB = World.fatBox(for: box, speculative: spec, limit: margin)
                            if !sh.pointee.enlarged && (queueInert || !inert) {
                                sh.pointee.enlarged = true
                                moved.append(s)
                            }
                        }
                        s = sh.pointee.nextShape
                    }
                }
                // sorted here, in parallel, so the pair search's sort of the whole queue merges a
                // few runs (`World.updatePairs`)
                moved.sort()
                movedLists[chunk] = moved
            }
        }
        for c in 0..<chunks { broadPhase.movedProxies.append(contentsOf: movedLists[c]) }
    }

    /// Brings the boxes the steps left behind (`hasStaleBoxes`) up to date with their bodies: every
    /// moving shape that meets nothing gets the box of its pose and its fat box
    /// (`settleBoxes`). Called by every reader of a shape's boxes outside the step's own passes.
    /// Only shapes that meet nothing are left behind, and their fat boxes matter to nothing the
    /// step does until they stop meeting nothing, when they are settled again: so when this runs
    /// (a query, a snapshot) does not change what later steps do.
    func refreshStaleBoxes() {
        guard hasStaleBoxes else { return }
        hasStaleBoxes = false
        let inUse = broadPhase.categoriesInUse
        for i in 0..<shapes.count
        where shapes[i].isAlive && !shapes[i].isStaticProxy && BroadPhase.meetsNothing(shapes[i].filter, inUse: inUse) {
            settleBoxes(of: i)
        }
    }

    /// Gives shape `i` the box of its body's pose and, as its fat box, `fatBox(for:)` of it:
    /// what a shape that meets nothing gets when it starts meeting something (`setFilter`, a
    /// category coming into use), so that it enters the pair search with boxes that depend on its
    /// pose alone — not on whether a query grid kept its boxes up to date at every step (with the
    /// fat box's hysteresis) or the steps left them behind.
    func settleBoxes(of i: Int) {
        let box = shapes[i].computeAABB(bodies[Int(shapes[i].body)].transform)
        shapes[i].aabb = box
        shapes[i].fatAABB = shapes[i].isStaticProxy ? box : fatBox(for: box)
        noteTeleportForQueries(Int32(i))   // a kept query grid holds its old fat box
    }

    /// After the categories in use changed from `before`: settles the boxes of the shapes (not
    /// static ones, which are kept up to date) that met nothing and now meet something.
    func settleShapesJoining(after before: UInt64) {
        let now = broadPhase.categoriesInUse
        guard now & ~before != 0 else { return }   // a category came into use: only then can one join
        for i in 0..<shapes.count where shapes[i].isAlive && !shapes[i].isStaticProxy
            && BroadPhase.meetsNothing(shapes[i].filter, inUse: before)
            && !BroadPhase.meetsNothing(shapes[i].filter, inUse: now) {
            settleBoxes(of: i)
        }
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

/// The sub-steps' loops over bodies and wide constraints, formed once a step (`solveSubsteps`).
struct SubstepKernels {
    let integrateVelocities: (Range<Int>) -> Void
    let integratePositions: (Range<Int>) -> Void
    /// Each over a range of wide constraints, with the running thread's trash record.
    let warmStartWide: (Range<Int>, Int32) -> Void
    let solveWide: (Range<Int>, Int32) -> Void
    let relaxWide: (Range<Int>, Int32) -> Void
    let relaxAndStoreWide: (Range<Int>, Int32) -> Void
}

/// A stage of the sub-step program (`World.runSubstepProgram`).
enum SubstepOp {
    case integrateVelocities, integratePositions
    case joints(JointPass)
    case overflow(ContactPass)
    case wide(ContactPass)
}

/// A pass over contact constraints in the sub-steps.
enum ContactPass {
    case warmStart, solve, relax
    /// The last relax pass, which also stores the wide constraints' impulses.
    case relaxAndStore
}
