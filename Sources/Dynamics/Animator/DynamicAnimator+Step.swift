import DynamicsEngine
import Foundation

extension DynamicAnimator {
    // MARK: Stepping

    /// Runs exactly one fixed step of ``stepDuration`` seconds, then calls the frame observers
    /// once. Called from inside a step's callbacks it is reported and ignored.
    public func step() {
        guard !isStepping else {
            report(.calledDuringStep, "step() was called during a step's callbacks; ignored.")
            return
        }
        isStepping = true
        defer { isStepping = false }
        runOneStep(frameSteps: 1)
    }

    /// Adds `seconds` to the animator's time accumulator and runs the steps of ``stepDuration``
    /// it calls for (with a tolerance of 10⁻⁹ s, so `advance(by: 1)` runs 60 steps at 1/60 s and
    /// sixty calls of `advance(by: 1/60)` run 60 steps); the remainder carries over to the next
    /// call. While ``interpolatesItems`` (the default) that is every step that starts before the
    /// display's time, so the physics reaches it and the items show the pose at that time; without,
    /// every whole step that fits. The frame observers are called once, after the last step, when
    /// at least one step ran (or, while interpolating, when the shown poses moved). A non-finite or negative duration is reported and ignored, as is a call from
    /// inside a step's callbacks. A duration of more than ``maximumStepsPerAdvance`` steps runs
    /// that many steps and drops the rest of the time, with a diagnostic (a call that would run
    /// for hours is a bug, not a request).
    ///
    /// - Parameter seconds: The time that passed, in seconds (a display link's frame duration).
    /// - Returns: The number of steps run.
    @discardableResult
    public func advance(by seconds: TimeInterval) -> Int {
        guard !isStepping else {
            report(.calledDuringStep, "advance(by:) was called during a step's callbacks; ignored.")
            return 0
        }
        guard seconds.isFinite, seconds >= 0 else {
            report(.refused("DynamicAnimator.advance(by:)", isFinite: seconds.isFinite),
                   "advance(by:) needs a finite, non-negative duration, not \(seconds) s; ignored.")
            return 0
        }
        isStepping = true
        defer { isStepping = false }
        accumulator += seconds
        var count = stepsDue()
        accumulator -= Double(count) * storedStepDuration
        // what the tolerance let through is not carried over as a debt
        if accumulator < 0 && (accumulator > -Self.timeTolerance || !storedInterpolatesItems) {
            accumulator = 0
        }
        if count > Self.maximumStepsPerAdvance {
            report(.valueOutOfRange(property: "DynamicAnimator.advance(by:)"),
                   "advance(by: \(seconds) s) asks for \(count) steps; running \(Self.maximumStepsPerAdvance) and dropping the rest of the time.")
            count = Self.maximumStepsPerAdvance
            accumulator = 0
        }
        for k in 0..<count {
            runOneStep(frameSteps: k == count - 1 ? count : 0, presents: k == count - 1)
        }
        if count == 0 && seconds > 0 && !presenting.isEmpty && storedInterpolatesItems {
            presentFrame()
        }
        return count
    }

    /// A frame that ran no step, while interpolating: the items move on to the display's time and
    /// the frame observers hear of it (`steps` 0) — unless no shown pose changed (the items that
    /// moved in the last step were all removed, re-placed or anchored since), which is no frame.
    private func presentFrame() {
        guard presentItems() else { return }
        isLocked = true
        deliverFrame(steps: 0)
        isLocked = false
        applyPendingOperations()
    }

    /// Calls the frame observers with the state of every item (built only for someone to read it).
    private func deliverFrame(steps: Int) {
        if !frameObservers.isEmpty {
            let report = makeFrameReport(steps: steps)
            let observers = frameObservers
            frameIndex += 1
            for entry in observers { entry.observer(report) }
        } else {
            frameIndex += 1
        }
    }

    /// The most fixed steps one ``advance(by:)`` runs: 36 000 (10 minutes at 1/60 s).
    public static let maximumStepsPerAdvance = 36_000

    /// One step, in the order UIKit uses: apply pending changes, per-item forces from every
    /// behaviour (depth-first), the engine step, write-back; then, with the world locked against
    /// structural changes, all collision *began* callbacks, all *ended* callbacks, every `action`,
    /// the pause check and (when `frameSteps` > 0) the frame observers; finally the changes
    /// queued by those callbacks.
    func runOneStep(frameSteps: Int, presents: Bool = false) {
        refreshReferenceBounds()
        ensureSynced()
        let dt = storedStepDuration
        if !running && world.hasAwakeDynamicBody { tickle() }
        let counts = running
        let forcesStart = ContinuousClock.now
        for b in forceBehaviors {
            // a field stores another crowd's held forces itself; anything else first needs them
            if !(b is FieldBehavior) { storeFieldForces() }
            b.applyForces(in: self, dt: dt)
        }
        storeFieldForces()
        let engineStart = ContinuousClock.now
        forceTime += engineStart - forcesStart
        world.step(dt: Float(dt), substeps: storedSubsteps)
        engineTime += ContinuousClock.now - engineStart
        if !world.validationErrors.isEmpty { reportValidationFailure() }
        if world.lastStepCrowdLimited > 0 { reportContactBudget() }
        if counts { elapsedTime += dt }
        // the last step of an advance that ends inside it is shown blended: its moves are noted
        beginPresentationStep(noting: presents && presentationFraction < 1)
        writeBack()
        finishLeftPresentation()

        // Listed before the callbacks: behaviours they add or remove join or leave after them.
        let behaviors = flat
        isLocked = true
        deliverContactEvents()
        for b in behaviors { b.action?() }
        if running && !world.hasAwakeDynamicBody {
            running = false
            delegate?.dynamicAnimatorDidPause(self)
        }
        if frameSteps > 0 {
            // the items show the display's time from here on (after the actions, which read the
            // step's own pose); a `step()` shows the step itself
            if isNotingPresentation { presentItems() }
            deliverFrame(steps: frameSteps)
        }
        isLocked = false
        applyPendingOperations()
    }

    /// Says once that the engine's contact budget left pairs out (a heap of items overlapping
    /// deeply, such as many created on one point): see `World.crowdLimit`.
    private func reportContactBudget() {
        reportOnce(.crowdLimited,
                   "Items overlap so deeply (a heap created on one spot?) that the engine limited their contacts: each item keeps at most \(World.crowdLimit) with items at least half its size, so the heap's work and memory per step grow with the number of items, not its square. The contacts it keeps push the heap apart; until it has spread, some overlapping items may pass through each other.")
    }

    /// Runs the operations queued during a step's callbacks, then reconciles the tree.
    func applyPendingOperations() {
        var rounds = 0
        while !pendingOperations.isEmpty || treeDirty {
            rounds += 1
            if rounds > 64 {
                // Callbacks that keep queueing work for themselves would never let the step end.
                report(.runawayChanges,
                       "\(pendingOperations.count) changes queued during the step's callbacks kept queueing more for 64 rounds; they were dropped.")
                pendingOperations.removeAll()
                break
            }
            let ops = pendingOperations
            pendingOperations.removeAll()
            for op in ops { op() }
            if treeDirty && !isReconciling { reconcileTree() }
        }
    }

    /// Writes each moved item's center and rotation (and its group members'): only the items whose
    /// bodies the step moved (an item at rest is not visited), in the order the step solved them.
    ///
    /// The walk goes through unmanaged references: a retain and release per item was most of what
    /// write-back cost. That is safe because `slots`, a copy of `recordSlots.slots`, holds every record
    /// strongly until the walk ends, whatever an item's setter does to the animator meanwhile.
    ///
    /// The records lie scattered in memory and the walk is bound by fetching them (ui_fields: 10 000
    /// moved items, each in a record and an item object of its own), so it runs in batches of
    /// `writeBackBatch` items: a tight first pass only reads one word of every cache line each
    /// record's write-back uses (and the item's header), so the processor has the whole batch's
    /// lines in flight at once; the second pass, which writes the items in order, then finds them
    /// in the cache. With one pass the long per-item work kept only one or two items' fetches in
    /// flight.
    ///
    /// On two threads or more, the items that nothing can see being written — a
    /// ``BasicDynamicItem`` on its own, whose `center` and `transform` no subclass can override —
    /// are written on the world's threads, in parts of `writeBackPart` items, when the step ran no
    /// presentation bookkeeping (which lists the moved items in order, and whose pass over them
    /// afterwards runs on this thread: split, the write-back left their records and items in the
    /// other core's cache, 1.10× the time; docs/THREADING.md); every other item (an item of the
    /// app's own class, a group and its members) is written afterwards, on this thread, in the
    /// same order as before among themselves.
    private func writeBack() {
        world.collectMovedBodies(into: &movedBodyScratch)
        let moved = movedBodyScratch
        guard !moved.isEmpty else { return }
        let slots = recordSlots.slots
        var digest: UInt = 0
        slots.withUnsafeBufferPointer { buffer in
            // `ItemRecord?` and `Unmanaged<ItemRecord>?` are both one nullable pointer
            buffer.withMemoryRebound(to: Unmanaged<ItemRecord>?.self) { refs in
                moved.withUnsafeBufferPointer { moved in
                    if world.def.workerCount > 1 && !isNotingPresentation && moved.count >= 2 * Self.writeBackPart {
                        digest = writeBackInParts(moved, refs)
                    } else {
                        digest = writeBack(moved, 0..<moved.count, refs, deferring: nil)
                    }
                }
            }
        }
        writeBackDigest = digest
    }

    /// The write-back of `moved` on the world's threads (see `writeBack()`). Returns the
    /// prefetch pass's digest.
    private func writeBackInParts(
        _ moved: UnsafeBufferPointer<MovedBody>, _ refs: UnsafeBufferPointer<Unmanaged<ItemRecord>?>
    ) -> UInt {
        let size = Self.writeBackPart
        let parts = (moved.count + size - 1) / size
        var digests = [UInt](repeating: 0, count: parts)
        var deferred = [[Int]](repeating: [], count: parts)
        digests.withUnsafeMutableBufferPointer { digests in
            deferred.withUnsafeMutableBufferPointer { deferred in
                let digestBase = digests.baseAddress!, deferredBase = deferred.baseAddress!
                world.forEachRangeBetweenSteps(parts, minimum: 1) { range in
                    for part in range {
                        let items = (part * size)..<min(moved.count, (part + 1) * size)
                        digestBase[part] = self.writeBack(moved, items, refs, deferring: deferredBase + part)
                    }
                }
            }
        }
        let digest = digests.reduce(0, ^)
        for list in deferred where !list.isEmpty {
            for k in list {
                guard let ref = Self.record(moved[k], refs) else { continue }
                let transform = moved[k].transform
                ref._withUnsafeGuaranteedRef { writeBack($0, transform) }
            }
        }
        return digest
    }

    /// Writes the items of `moved[range]` in batches (see `writeBack()`); with `deferred`, only
    /// the plain ones (a ``BasicDynamicItem`` on its own), listing the others' indices there.
    /// Returns the prefetch pass's digest.
    private func writeBack(_ moved: UnsafeBufferPointer<MovedBody>, _ range: Range<Int>,
                           _ refs: UnsafeBufferPointer<Unmanaged<ItemRecord>?>,
                           deferring deferred: UnsafeMutablePointer<[Int]>?) -> UInt {
        var digest: UInt = 0
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + Self.writeBackBatch, range.upperBound)
            for k in start..<end {
                guard let ref = Self.record(moved[k], refs) else { continue }
                digest ^= ref._withUnsafeGuaranteedRef { $0.hotLinesDigest }
            }
            for k in start..<end {
                guard let ref = Self.record(moved[k], refs) else { continue }
                let transform = moved[k].transform
                ref._withUnsafeGuaranteedRef { r in
                    if let deferred, r.basicItem == nil || r.isGroup {
                        deferred.pointee.append(k)
                    } else {
                        writeBack(r, transform)
                    }
                }
            }
            start = end
        }
        return digest
    }

    /// The record of a moved body's item, if it has one.
    @inline(__always)
    private static func record(
        _ m: MovedBody, _ refs: UnsafeBufferPointer<Unmanaged<ItemRecord>?>
    ) -> Unmanaged<ItemRecord>? {
        guard case .item(let slot) = EngineOwner(body: m.userData), slot < refs.count else { return nil }
        return refs[slot]
    }

    /// How many moved items a thread writes at a time on two threads or more (see `writeBack()`):
    /// about 7 µs of write-back (ui_fields).
    static let writeBackPart = 1024

    /// How many moved items the write-back fetches before it writes them (see `writeBack()`): 32
    /// items' records and headers are about 8 KiB, well within a first-level data cache.
    static let writeBackBatch = 32

    /// Writes record `r`'s item (and its members) from its body's transform, when it changed.
    private func writeBack(_ r: ItemRecord, _ transform: Transform) {
        guard !r.isAnchored else { return }
        let center = transform.p.cgPoint
        let angle = bodyAngle(r, transform.q)
        noteStepPose(r, center, angle)
        guard center != r.lastCenter || angle != r.lastAngle else { return }
        show(r, center, angle)
    }

    /// Shows `center` and `angle` on record `r`'s item (and its members).
    func show(_ r: ItemRecord, _ center: CGPoint, _ angle: CGFloat) {
        r.lastCenter = center
        r.lastAngle = angle
        // the transform too when only the center moved: an item's transform may hold what the
        // animator replaced (a non-finite one set by hand), and UIKit writes both
        if let basic = r.basicItem {
            let transform = rotationTransform(r, angle)
            basic._withUnsafeGuaranteedRef {
                $0.center = center
                $0.transform = transform
            }
        } else {
            r.item.center = center
            r.item.transform = rotationTransform(r, angle)
        }
        guard r.isGroup else { return }
        for m in r.members {
            let offset = m.offset.rotatedForAnimator(by: angle)
            m.item.center = CGPoint(x: center.x + offset.x, y: center.y + offset.y)
            m.item.transform = CGAffineTransform(rotationAngle: angle + m.angle)
        }
    }

    /// `CGAffineTransform(rotationAngle: angle)`, the cached one when `angle` is the one it was
    /// made for.
    private func rotationTransform(_ r: ItemRecord, _ angle: CGFloat) -> CGAffineTransform {
        if r.transformCacheAngle == angle { return r.cachedTransform }
        let t = CGAffineTransform(rotationAngle: angle)
        r.cacheTransform(t, angle: angle)
        return t
    }

    /// The angle of `r`'s body, whose rotation is `q`, in radians: the cached one when the body
    /// has not turned since it was computed.
    func bodyAngle(_ r: ItemRecord, _ q: Rot) -> CGFloat {
        // fields compared directly: `==` through Equatable was not specialised across the module
        if r.angleCacheRotation.c == q.c, r.angleCacheRotation.s == q.s { return r.angleCacheAngle }
        let angle = CGFloat(q.angle)
        r.angleCacheRotation = q
        r.angleCacheAngle = angle
        return angle
    }

    // MARK: Contact events

    /// Delivers the engine's touch events of the last step: every began, then every ended, in
    /// event order. An item–item touch is reported by every collision behaviour that holds both
    /// items in `.items` mode (in depth-first order); an item–boundary touch by the boundary's
    /// behaviour when it holds the item in `.boundaries` mode.
    private func deliverContactEvents() {
        let removed = endedByRemoval
        endedByRemoval = []
        guard !collisionBehaviors.isEmpty else { return }
        let begins = world.beginEvents
        let ends = world.endEvents
        for e in begins { deliver(e, began: true) }
        for e in ends { deliver(e, began: false) }
        for (boundary, r) in removed where itemRecord(slot: r.slot) === r {
            deliverEnded(r, boundary)
        }
    }

    private func deliver(_ e: ContactEvent, began: Bool) {
        let ownerA = world.owner(of: e.shapeA), ownerB = world.owner(of: e.shapeB)
        let point = e.point.cgPoint
        switch (ownerA, ownerB) {
        case let (.item(ua), .item(ub)):
            guard let ra = itemRecord(slot: ua), let rb = itemRecord(slot: ub) else { return }
            let shared = ra.itemModeBits & rb.itemModeBits
            guard shared != 0 else { return }
            for cb in collisionBehaviors {
                guard let k = cb.slot, shared & CollisionBits.itemMode(k) != 0, let d = cb.collisionDelegate else { continue }
                if began {
                    d.collisionBehavior(cb, beganContactFor: ra.item, with: rb.item, at: point)
                } else {
                    d.collisionBehavior(cb, endedContactFor: ra.item, with: rb.item)
                }
            }
        case let (.item(itemSlot), .boundary(boundarySlot)), let (.boundary(boundarySlot), .item(itemSlot)):
            guard let r = itemRecord(slot: itemSlot), let boundary = boundarySlots[boundarySlot] else { return }
            let cb = boundary.behavior
            guard !began else {
                guard let k = cb.slot, r.boundaryModeBits & CollisionBits.boundaryMode(k) != 0,
                      let d = cb.collisionDelegate else { return }
                // UIKit reports the point on the boundary: project the manifold point onto the segment.
                let segment = world.outline(ownerA.itemSlot != nil ? e.shapeB : e.shapeA).points
                let onBoundary = segment.count == 2 ? closestPoint(e.point, segment[0], segment[1]).cgPoint : point
                d.collisionBehavior(cb, beganContactFor: r.item, withBoundaryIdentifier: boundary.object, at: onBoundary)
                return
            }
            deliverEnded(r, boundary)
        default:
            return
        }
    }

    /// An item stopped touching a boundary: told to the boundary's behaviour when it holds the
    /// item in `.boundaries` mode.
    private func deliverEnded(_ r: ItemRecord, _ boundary: BoundaryRecord) {
        let cb = boundary.behavior
        guard let k = cb.slot, r.boundaryModeBits & CollisionBits.boundaryMode(k) != 0,
              let d = cb.collisionDelegate else { return }
        d.collisionBehavior(cb, endedContactFor: r.item, withBoundaryIdentifier: boundary.object)
    }

    private func closestPoint(_ p: Vec2, _ a: Vec2, _ b: Vec2) -> Vec2 {
        let ab = b - a
        let t = ab.lengthSquared > 0 ? clamp(dot(p - a, ab) / ab.lengthSquared, 0, 1) : 0
        return a + t * ab
    }

    private func itemRecord(slot: Int) -> ItemRecord? {
        recordSlots[slot]
    }

    // MARK: Frames

    /// Adds `observer`, called once after every ``step()`` and once after every
    /// ``advance(by:)`` that ran at least one step, with the state of every item. Observers run
    /// in the order added, after the step's actions; changes they make take effect at the end
    /// of the step.
    ///
    /// - Parameter observer: The closure to call with each ``FrameReport``.
    /// - Returns: A token for ``removeFrameObserver(_:)``; you may ignore it.
    @discardableResult
    public func addFrameObserver(_ observer: @escaping (FrameReport) -> Void) -> FrameObserverToken {
        let token = nextObserverToken
        nextObserverToken += 1
        frameObservers.append((token, observer))
        return FrameObserverToken(id: token)
    }

    /// Removes the observer that `token` names; an unknown token (or one already removed) is
    /// reported and ignored.
    ///
    /// - Parameter token: The token ``addFrameObserver(_:)`` returned.
    public func removeFrameObserver(_ token: FrameObserverToken) {
        guard frameObservers.contains(where: { $0.token == token.id }) else {
            report(.nothingToRemove, "removeFrameObserver: no frame observer has this token; ignored.")
            return
        }
        frameObservers.removeAll { $0.token == token.id }
    }

    /// The state of every item now, in the order the items joined.
    func makeFrameReport(steps: Int) -> FrameReport {
        let behind = presenting.isEmpty ? 0 : (1 - presentationFraction) * storedStepDuration
        return FrameReport(index: frameIndex, time: elapsedTime, steps: steps, items: records.map(frameItem),
                           presentedTime: max(0, elapsedTime - behind))
    }

    private func frameItem(_ r: ItemRecord) -> FrameReport.Item {
        let transform = world.transform(r.body)
        let center = transform.p
        // an item that moved in the last step shows its pose at the display's time
        let shown = isPresenting(r) ? (r.lastCenter, r.lastAngle) : (center.cgPoint, bodyAngle(r, transform.q))
        let velocity = world.velocity(r.body, atWorldPoint: center)
        let resting = r.properties.isAnchored || !world.isAwake(r.body)
        return FrameReport.Item(name: r.name, center: shown.0, angle: shown.1, velocity: velocity.cgPoint,
                                angularVelocity: CGFloat(world.angularVelocity(r.body)), isResting: resting)
    }
}
