import DynamicsEngine
import Foundation

// Snapshots of a whole animator.
//
// Why it is shaped so: items and behaviours are objects that cannot be archived, so a snapshot
// names them by position — behaviours by their index in the depth-first list, items by their
// index in the *item table* (every behaviour's items in depth-first order of first mention, each
// group followed by its members). The configuration lines describe that structure; a snapshot is
// restored only into an animator whose lines are equal, which makes "the same items and
// behaviours" precise and lets an app rebuild its scene after a relaunch and restore into it.
//
// Restoring is all or nothing: the world is restored into a fresh engine world, the animator's and
// every behaviour's state are read and checked against it, and only then is anything replaced.

extension DynamicAnimator {
    /// Captures everything that decides how the animator continues: the engine world (contacts,
    /// warm-start impulses, sleep timers), the animator's clock and bookkeeping, and every
    /// behaviour's state. See ``DynamicsSnapshot``.
    ///
    /// Changes made since the last step are applied first, as the next step would. Called from a
    /// step's callbacks (an `action`, a delegate callback, a frame observer) it captures the state
    /// after the step; behaviours added or removed in those callbacks take effect after them and
    /// are not in the snapshot (a diagnostic says so).
    ///
    /// - Returns: The snapshot; restore it with ``restore(_:)``.
    public func snapshot() -> DynamicsSnapshot {
        ensureSynced()
        if isLocked && (!pendingOperations.isEmpty || treeDirty) {
            report(.calledDuringStep,
                   "snapshot() during a step's callbacks: behaviours added or removed in those callbacks are not in the snapshot.")
        }
        let table = snapshotItemTable()
        var w = SnapshotWriter()
        w.add(storedStepDuration)
        w.add(storedSubsteps)
        w.add(elapsedTime)
        w.add(accumulator)
        w.add(running)
        w.add(frameIndex)
        // Taken from a diagnostic handler in the middle of a synchronisation, the snapshot holds a
        // half-synchronised animator: the restored one synchronises again before its next step.
        w.add(needsSync || isSyncing)
        w.add(wakeAllOnSync)
        w.add(groundBody)
        w.add(recordSlots.count)
        w.add(recordSlots.free.count)
        for s in recordSlots.free { w.add(s) }
        w.add(records.count)
        for r in records {
            w.add(table.index[r.id] ?? -1)
            w.add(r.slot)
            w.add(r.body)
            w.add(r.shapes.count)
            for (s, scale) in zip(r.shapes, r.densityScales) { w.add(s); w.add(scale) }
            w.add(r.size.width)
            w.add(r.size.height)
            w.add(r.shapeSignature.count)
            for s in r.shapeSignature { w.add(s.size.width); w.add(s.size.height); w.add(s.type.rawValue) }
            let p = r.properties
            for v in [p.elasticity, p.friction, p.density, p.resistance, p.angularResistance, p.charge] { w.add(v) }
            w.add(p.isAnchored)
            w.add(p.allowsRotation)
            w.add(bits: r.filter.categoryBits)
            w.add(bits: r.filter.maskBits)
            w.add(Int(r.filter.groupIndex))
            w.add(bits: r.itemModeBits)
            w.add(bits: r.boundaryModeBits)
            w.add(r.members.count)
            for m in r.members {
                w.add(table.index[ObjectIdentifier(m.item)] ?? -1)
                w.add(m.offset)
                w.add(m.angle)
            }
            w.add(r.lastCenter)
            w.add(r.lastAngle)
        }
        let behaviorIndex = flatIndex()
        w.add(boundarySlots.count)
        for slot in boundarySlots.slots {
            guard let b = slot else {
                w.add(false); w.add(-1); w.add(-1); w.add(BodyID.null)
                continue
            }
            w.add(true)
            w.add(behaviorIndex[ObjectIdentifier(b.behavior)] ?? -1)
            w.add(boundaryIndex(of: b))
            w.add(b.body)
        }
        w.add(boundarySlots.free.count)
        for s in boundarySlots.free { w.add(s) }
        for cb in collisionSlots { w.add(cb.flatMap { behaviorIndex[ObjectIdentifier($0)] } ?? -1) }
        let wake = itemsToWake.compactMap { table.index[ObjectIdentifier($0)] }
        w.add(wake.count)
        for i in wake { w.add(i) }

        let states = flat.map { b -> [UInt64] in
            var bw = SnapshotWriter()
            b.saveState(to: &bw, in: self)
            return bw.bits
        }
        return DynamicsSnapshot(elapsedTime: elapsedTime, frameIndex: frameIndex, itemCount: records.count,
                                configuration: snapshotConfiguration(table), animatorState: w.bits,
                                behaviorStates: states, world: world.snapshot())
    }

    /// Puts the animator back into the state `snapshot` captured, so that it continues bit for bit
    /// as the animator it was taken from continued: the world, every item's motion, contacts and
    /// sleep, ``elapsedTime``, the ``advance(by:)`` remainder, the frame index, and every
    /// behaviour's settings and state. Each item's `center` and `transform` are written at once.
    ///
    /// The animator must hold the same items and behaviours as the one the snapshot was taken from
    /// (the same one, or one built the same way): the same behaviour tree, each behaviour with the
    /// same items in the same order, the same groups, boundaries and reference bounds. Frame
    /// observers, delegates, `action` blocks and diagnostics are the animator's own and are kept.
    /// When the animator's running state changes, its ``delegate`` hears it.
    ///
    /// - Parameter snapshot: A snapshot from ``snapshot()``, possibly decoded from an archive.
    /// - Throws: ``DynamicsSnapshotError``: the snapshot does not fit this animator, is corrupt,
    ///   or `restore` was called during a step. The animator is then unchanged, and the error's
    ///   description is also reported as a ``DynamicsDiagnostic``.
    public func restore(_ snapshot: DynamicsSnapshot) throws {
        do {
            try restoreOrThrow(snapshot)
        } catch let error as DynamicsSnapshotError {
            report(.snapshotRefused(error), "restore(_:): \(error.description)")
            throw error
        }
    }

    // MARK: Configuration

    /// Every item the behaviours name, in depth-first order of first mention, each group followed
    /// by its members; and the reverse lookup.
    func snapshotItemTable() -> (items: [any DynamicItem], index: [ObjectIdentifier: Int]) {
        var items: [any DynamicItem] = []
        var index: [ObjectIdentifier: Int] = [:]
        func add(_ item: any DynamicItem) {
            let id = ObjectIdentifier(item)
            guard index[id] == nil else { return }
            index[id] = items.count
            items.append(item)
            if let group = item as? DynamicItemGroup { for m in group.items { add(m) } }
        }
        for b in flat { for item in b.heldItems { add(item) } }
        return (items, index)
    }

    /// Behaviour identity → index in `flat`.
    private func flatIndex() -> [ObjectIdentifier: Int] {
        var index: [ObjectIdentifier: Int] = [:]
        for (i, b) in flat.enumerated() { index[ObjectIdentifier(b)] = i }
        return index
    }

    /// The configuration lines (see `DynamicsSnapshot.configuration`).
    private func snapshotConfiguration(_ table: (items: [any DynamicItem], index: [ObjectIdentifier: Int])) -> [String] {
        var lines: [String] = []
        if let r = referenceBoundsInUse {
            lines.append("reference bounds (\(r.origin.x), \(r.origin.y), \(r.width), \(r.height))")
        } else {
            lines.append("no reference bounds")
        }
        let behaviorIndex = flatIndex()
        for (i, b) in flat.enumerated() {
            let parent = b.parent.flatMap { behaviorIndex[ObjectIdentifier($0)] } ?? -1
            let items = b.heldItems.map { String(table.index[ObjectIdentifier($0)] ?? -1) }.joined(separator: ", ")
            var line = "behaviour \(i): \(String(reflecting: type(of: b))), parent \(parent), items [\(items)]"
            let signature = b.snapshotSignature
            if !signature.isEmpty { line += ", \(signature)" }
            lines.append(line)
        }
        for (i, item) in table.items.enumerated() {
            guard let group = item as? DynamicItemGroup else { continue }
            let members = group.items.map { String(table.index[ObjectIdentifier($0)] ?? -1) }.joined(separator: ", ")
            lines.append("item \(i): a group of [\(members)]")
        }
        return lines
    }

    /// The boundary's index in its behaviour: −1 for the reference bounds, −2 when it is retired
    /// (replaced or removed, its body not yet destroyed).
    private func boundaryIndex(of b: BoundaryRecord) -> Int {
        guard let id = b.identifier else { return -1 }
        return b.behavior.boundaryIndex(of: id) ?? -2
    }

    // MARK: Restoring

    private func restoreOrThrow(_ snapshot: DynamicsSnapshot) throws {
        guard !isLocked, !isStepping, !isReconciling, !isSyncing else { throw DynamicsSnapshotError.restoringDuringStep }
        guard (SnapshotFormat.oldest...SnapshotFormat.current).contains(snapshot.formatVersion) else {
            throw DynamicsSnapshotError.unsupportedFormatVersion(snapshot.formatVersion)
        }
        guard snapshot.world.formatVersion == snapshot.formatVersion else {
            throw DynamicsSnapshotError.corrupt("its world is of format version \(snapshot.world.formatVersion.map(String.init) ?? "none"), the snapshot of \(snapshot.formatVersion).")
        }
        guard snapshot.checksum == snapshot.computedChecksum else {
            throw DynamicsSnapshotError.corrupt("its checksum does not match its content.")
        }
        if treeDirty { reconcileTree() }
        let table = snapshotItemTable()
        let configuration = snapshotConfiguration(table)
        if configuration != snapshot.configuration {
            let n = min(configuration.count, snapshot.configuration.count)
            if let k = (0..<n).first(where: { configuration[$0] != snapshot.configuration[$0] }) {
                throw DynamicsSnapshotError.configurationMismatch("the snapshot has \"\(snapshot.configuration[k])\" where this animator has \"\(configuration[k])\".")
            }
            let longer = configuration.count > n ? "this animator" : "the snapshot"
            let extra = configuration.count > n ? configuration[n] : snapshot.configuration[n]
            throw DynamicsSnapshotError.configurationMismatch("\(longer) also has \"\(extra)\".")
        }
        guard snapshot.behaviorStates.count == flat.count else {
            throw DynamicsSnapshotError.corrupt("it holds \(snapshot.behaviorStates.count) behaviour states for \(flat.count) behaviours.")
        }

        // The world, into a fresh engine world: the animator's own is untouched until the end.
        let newWorld = World(def: world.def)
        newWorld.recordsMovedBodies = world.recordsMovedBodies
        do {
            try newWorld.restore(snapshot.world)
        } catch {
            throw DynamicsSnapshotError.corrupt("\(error)")
        }
        let problems = newWorld.validate()
        guard problems.isEmpty else {
            throw DynamicsSnapshotError.corrupt("its world is inconsistent (\(problems.prefix(3).joined(separator: "; "))).")
        }

        let state = try readAnimatorState(snapshot.animatorState, version: snapshot.formatVersion, table: table.items, world: newWorld)

        // Every behaviour checks its state before anything changes.
        var commits: [() -> Void] = []
        for (i, b) in flat.enumerated() {
            var reader = SnapshotReader(bits: snapshot.behaviorStates[i], subject: "behaviour \(i) (\(behaviorLabel(b)))",
                                        formatVersion: snapshot.formatVersion)
            let context = SnapshotRestoreContext(world: newWorld, behaviorIndex: i, boundarySlotCount: state.boundaries.count,
                                                 boundaryOwners: state.boundaries.map { $0.map { ($0.behavior, $0.boundary) } },
                                                 collisionSlotOwners: state.collisionSlots)
            commits.append(try b.restoreState(from: &reader, context: context))
            try reader.finish()
        }

        // Commit.
        let wasRunning = running
        world = newWorld
        storedStepDuration = state.stepDuration
        storedSubsteps = state.substeps
        elapsedTime = state.elapsedTime
        accumulator = state.accumulator
        running = state.running
        frameIndex = state.frameIndex
        endedByRemoval = []
        needsSync = state.needsSync
        wakeAllOnSync = state.wakeAllOnSync
        groundBody = state.groundBody
        records = state.records
        recordByID = [:]
        groupOfMember = [:]
        recordSlots = SlotTable(count: state.recordSlotCount, entries: records.map { ($0.slot, $0) },
                                free: state.freeRecordSlots)
        for r in records {
            recordByID[r.id] = r
            for m in r.members { groupOfMember[ObjectIdentifier(m.item)] = r }
        }
        let boundaries = state.boundaries.enumerated().compactMap { slot, entry in
            entry.map { e -> (slot: Int, element: BoundaryRecord) in
                let cb = flat[e.behavior] as! CollisionBehavior
                let identifier: AnyHashable? = e.boundary >= 0 ? cb.boundaryIdentifier(at: e.boundary) : nil
                return (slot, BoundaryRecord(behavior: cb, identifier: identifier, body: e.body))
            }
        }
        boundarySlots = SlotTable(count: state.boundaries.count, entries: boundaries, free: state.freeBoundarySlots)
        collisionSlots = state.collisionSlots.map { $0.map { flat[$0] as! CollisionBehavior } }
        freeCollisionSlots = Self.freeSlotMask(of: collisionSlots)
        itemsToWake = state.itemsToWake.map { table.items[$0] }
        // Velocities asked for since the last synchronisation were meant for the world now
        // replaced: they wait as ones asked for outside the world, and each behaviour's restored
        // state then decides for its own items.
        let deferred = deferredVelocities
        deferredVelocities = []
        for v in deferred { v.behavior.keepDeferred(v) }
        for commit in commits { commit() }

        // Records, behaviours and the world were all replaced: describe the scene afresh.
        sceneVersion &+= 1
        // The items show the restored poses.
        for r in records {
            r.item.center = r.lastCenter
            r.item.transform = CGAffineTransform(rotationAngle: r.lastAngle)
            for m in r.members {
                let offset = m.offset.rotatedForAnimator(by: r.lastAngle)
                m.item.center = CGPoint(x: r.lastCenter.x + offset.x, y: r.lastCenter.y + offset.y)
                m.item.transform = CGAffineTransform(rotationAngle: r.lastAngle + m.angle)
            }
        }
        restorePresentation()
        if running != wasRunning {
            if running { delegate?.dynamicAnimatorWillResume(self) } else { delegate?.dynamicAnimatorDidPause(self) }
        }
    }

    /// The animator's part of a snapshot, read and checked against the restored world.
    private struct AnimatorState {
        var stepDuration: TimeInterval = 1.0 / 60.0
        var substeps = 4
        var elapsedTime: TimeInterval = 0
        var accumulator: TimeInterval = 0
        var running = false
        var frameIndex = 0
        var needsSync = false
        var wakeAllOnSync = false
        var groundBody = BodyID.null
        var recordSlotCount = 0
        var freeRecordSlots: [Int] = []
        var records: [ItemRecord] = []
        var boundaries: [(behavior: Int, boundary: Int, body: BodyID)?] = []
        var freeBoundarySlots: [Int] = []
        var collisionSlots: [Int?] = []
        var itemsToWake: [Int] = []
    }

    private func readAnimatorState(_ bits: [UInt64], version: Int, table: [any DynamicItem], world newWorld: World) throws -> AnimatorState {
        var r = SnapshotReader(bits: bits, subject: "animator state", formatVersion: version)
        var s = AnimatorState()
        s.stepDuration = try r.finite()
        guard Self.stepDurationRange.contains(s.stepDuration) else { throw r.corrupt("stepDuration \(s.stepDuration)") }
        s.substeps = try r.int(1...64)
        s.elapsedTime = try r.nonNegative()
        // negative while interpolating: the physics ran ahead of the display by less than the
        // step it ran then, which may have been longer than today's
        s.accumulator = try r.finite()
        guard s.accumulator > -Self.stepDurationRange.upperBound else {
            throw r.corrupt("accumulator \(s.accumulator)")
        }
        s.running = try r.bool()
        s.frameIndex = try r.int(0...Int(Int32.max) * 1024)
        s.needsSync = try r.bool()
        s.wakeAllOnSync = try r.bool()
        s.groundBody = try r.bodyID()   // may be stale: `anchorBody` checks it

        // Every slot is named once after this count: a free one by one value, a used one by an
        // item record of 20 values or more. So a count past the values left is false, and is
        // refused before the tables of that many slots are made (a forged count of 2³¹ once
        // made this allocate 2.1 GB before refusing).
        s.recordSlotCount = try r.int(0...r.remaining)
        let slotRange = 0...max(0, s.recordSlotCount - 1)
        ReadAllocationMeter.reserve(s.recordSlotCount, of: Bool.self)
        ReadAllocationMeter.reserve(s.recordSlotCount, of: ItemRecord?.self)   // `recordSlots`, made on commit
        var slotUsed = Array(repeating: false, count: s.recordSlotCount)
        func claim(_ slot: Int) throws {
            guard slot < slotUsed.count, !slotUsed[slot] else { throw r.corrupt("item slot \(slot) is used twice") }
            slotUsed[slot] = true
        }
        for _ in 0..<(try r.count()) {
            let slot = try r.int(slotRange)
            try claim(slot)
            s.freeRecordSlots.append(slot)
        }
        let tableRange = 0...max(0, table.count - 1)
        var seenItems = Set<Int>()
        var seenMembers = Set<Int>()
        for _ in 0..<(try r.count(perEntry: 20)) {
            let itemIndex = try r.int(tableRange)
            guard !table.isEmpty, seenItems.insert(itemIndex).inserted else { throw r.corrupt("an item is named twice or does not exist") }
            let slot = try r.int(slotRange)
            try claim(slot)
            let record = ItemRecord(item: table[itemIndex], slot: slot)
            record.body = try r.bodyID()
            guard newWorld.isValid(record.body), newWorld.owner(of: record.body) == .item(slot: slot) else {
                throw r.corrupt("the body of item \(itemIndex) is not in the world")
            }
            for _ in 0..<(try r.count(perEntry: 3)) {
                let shape = try r.shapeID()
                guard newWorld.isValid(shape), newWorld.body(of: shape) == record.body, newWorld.owner(of: shape) == .item(slot: slot) else {
                    throw r.corrupt("a shape of item \(itemIndex) is not on its body")
                }
                record.shapes.append(shape)
                record.densityScales.append(try r.float())
            }
            record.size = CGSize(width: try r.nonNegative(), height: try r.nonNegative())
            for _ in 0..<(try r.count(perEntry: 3)) {
                let size = CGSize(width: try r.double(), height: try r.double())
                guard let type = DynamicItemCollisionBoundsType(rawValue: try r.int(0...2)) else { throw r.corrupt("a shape type") }
                record.shapeSignature.append(ShapeSignature(size: size, type: type, path: nil))
            }
            var p = ItemProperties()
            p.elasticity = try r.nonNegative()
            p.friction = try r.nonNegative()
            p.density = try r.nonNegative()
            p.resistance = try r.nonNegative()
            p.angularResistance = try r.nonNegative()
            p.charge = try r.finite()
            p.isAnchored = try r.bool()
            p.allowsRotation = try r.bool()
            record.properties = p
            record.filter = Filter(categoryBits: try r.bits(), maskBits: try r.bits(), groupIndex: Int32(try r.int(Int(Int32.min)...Int(Int32.max))))
            record.itemModeBits = try r.bits()
            record.boundaryModeBits = try r.bits()
            let memberCount = try r.count(perEntry: 4)
            if memberCount > 0 {
                guard let group = table[itemIndex] as? DynamicItemGroup else { throw r.corrupt("item \(itemIndex) is not a group") }
                for _ in 0..<memberCount {
                    let m = try r.int(tableRange)
                    guard group.items.contains(where: { $0 === table[m] }), !(table[m] is DynamicItemGroup),
                          seenMembers.insert(m).inserted else {
                        throw r.corrupt("item \(m) is not a member of group \(itemIndex)")
                    }
                    record.members.append(GroupMember(item: table[m], offset: try r.point(), angle: try r.finite()))
                }
            }
            // A group's path signatures come from its members; an item's from itself.
            let sources: [any DynamicItem] = record.isGroup ? record.members.map(\.item) : [record.item]
            if sources.count == record.shapeSignature.count {
                for (k, source) in sources.enumerated() where record.shapeSignature[k].type == .path {
                    record.shapeSignature[k].path = source.collisionBoundingPath?.snapshotCopy()
                }
            }
            record.lastCenter = try r.point()
            record.lastAngle = try r.finite()
            s.records.append(record)
        }
        guard slotUsed.allSatisfy({ $0 }) else { throw r.corrupt("an item slot is neither used nor free") }
        guard seenItems.isDisjoint(with: seenMembers) else { throw r.corrupt("an item is both on its own and in a group") }

        let flatCount = flat.count
        let boundaryCount = try r.count(perEntry: 5)
        var boundaryBodies = Set<BodyID>()
        for _ in 0..<boundaryCount {
            let present = try r.bool()
            let behavior = try r.int(-1...max(-1, flatCount - 1))
            let boundary = try r.int(-2...Int(Int32.max))
            let body = try r.bodyID()
            guard present else { s.boundaries.append(nil); continue }
            guard behavior >= 0, let cb = flat[behavior] as? CollisionBehavior, boundary < cb.boundaryCount else {
                throw r.corrupt("a boundary body's owner is not a collision behaviour with that boundary")
            }
            guard newWorld.isValid(body), newWorld.bodyType(body) == .static, boundaryBodies.insert(body).inserted else {
                throw r.corrupt("a boundary body is not in the world")
            }
            s.boundaries.append((behavior, boundary, body))
        }
        var freeSeen = Set<Int>()
        for _ in 0..<(try r.count()) {
            let slot = try r.int(0...max(0, boundaryCount - 1))
            guard boundaryCount > 0, s.boundaries[slot] == nil, freeSeen.insert(slot).inserted else {
                throw r.corrupt("free boundary slot \(slot) is in use")
            }
            s.freeBoundarySlots.append(slot)
        }
        guard freeSeen.count == s.boundaries.filter({ $0 == nil }).count else { throw r.corrupt("a boundary slot is neither used nor free") }
        var slotOwners = Set<Int>()
        for _ in 0..<CollisionBits.maxBehaviors {
            let b = try r.int(-1...max(-1, flatCount - 1))
            guard b < 0 || (flat[b] is CollisionBehavior && slotOwners.insert(b).inserted) else {
                throw r.corrupt("a collision slot's owner is not a collision behaviour")
            }
            s.collisionSlots.append(b < 0 ? nil : b)
        }
        for _ in 0..<(try r.count()) {
            s.itemsToWake.append(try r.int(tableRange))
            guard !table.isEmpty else { throw r.corrupt("an item to wake does not exist") }
        }
        try r.finish()
        return s
    }
}

extension ShapeSignature {
    /// A signature as saved in a snapshot.
    init(size: CGSize, type: DynamicItemCollisionBoundsType, path: BezierPath?) {
        self.size = size
        self.type = type
        self.path = path
    }
}
