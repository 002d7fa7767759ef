import DynamicsEngine
import Foundation

// Keeping the engine world in step with the behaviours.
//
// Two levels, both deterministic (arrays in depth-first order; dictionaries only for lookups):
// - the behaviour *tree* is reconciled eagerly (outside a step's callbacks), so `dynamicAnimator`
//   and `willMove(to:)` follow `addBehavior`/`addChildBehavior` at once;
// - the *world* (bodies for items, materials, filters, joints, boundaries) is synchronised lazily,
//   before the next step or query, so adding a thousand items one by one costs one pass.

extension DynamicAnimator {
    // MARK: The behaviour tree

    /// Behaviours were added to or removed from the tree at `root` (a top-level behaviour or a
    /// child, with its subtree; nil when the roots are already in `changedRoots`); `removal` when
    /// they were taken out of it.
    func behaviorTreeDidChange(at root: DynamicBehavior?, removal: Bool = false) {
        if let root { changedRoots.append(root) }
        if removal { treeHasCuts = true }
        if isReconciling { treeChangedInRound = true }
        treeDirty = true
        needsSync = true
        if !isLocked && !isReconciling { reconcileTree() }
    }

    /// Every behaviour of the tree, depth-first (a parent before its children, children in
    /// order): listed again after behaviours joined or left, except while changes wait for
    /// reconciliation (then it still lists the behaviours in the animator).
    var flat: [DynamicBehavior] {
        refreshFlat()
        return flatList
    }

    /// The collision behaviours of ``flat``, in the same order.
    var collisionBehaviors: [CollisionBehavior] {
        refreshFlat()
        return collisionList
    }

    /// The behaviours of `flat` that apply forces each step, in the same order.
    var forceBehaviors: [DynamicBehavior] {
        refreshFlat()
        return forceList
    }

    private func refreshFlat() {
        guard flatIsStale, !treeDirty, !isReconciling else { return }
        // Members only: after a reconciliation stopped by its round limit the tree may hold
        // behaviours that never joined.
        flatList = depthFirst(topLevel.elements).filter { $0.dynamicAnimator === self }
        collisionList = flatList.compactMap { $0 as? CollisionBehavior }
        forceList = flatList.filter { $0.appliesForces }
        flatIsStale = false
    }

    /// Calls `willMove(to:)`, `detach` and `attach` for the behaviours that left or joined under
    /// the changed roots: first every leaving one, then every joining one, each subtree
    /// depth-first. The work is proportional to the subtrees that changed, not to the tree, so
    /// adding n behaviours one by one costs O(n). `willMove(to:)` may change the tree again: the
    /// loop repeats (at most 16 rounds, then reports).
    func reconcileTree() {
        isReconciling = true
        defer { isReconciling = false }
        var rounds = 0
        while !changedRoots.isEmpty {
            rounds += 1
            if rounds > 16 {
                report(.runawayChanges,
                       "The behaviour tree kept changing inside willMove(to:); stopped after 16 rounds.")
                changedRoots.removeAll()
                treeMayHoldStrays = true
                break
            }
            let roots = changedRoots
            changedRoots.removeAll()
            // With only additions since the last reconciliation every behaviour of the animator
            // hangs from the tree, so an ancestor in the animator answers for the root.
            let cuts = treeHasCuts || treeMayHoldStrays
            treeHasCuts = false
            treeChangedInRound = false
            for root in roots where !isInTree(root, membersMayBeStale: cuts || treeChangedInRound) { leave(root) }
            for root in roots where isInTree(root, membersMayBeStale: cuts || treeChangedInRound) { join(root) }
            flatIsStale = true
            needsSync = true
        }
        treeDirty = false
    }

    /// Whether `b` hangs from one of the top-level behaviours (its subtree then shares the answer).
    /// The walk up stops at the first ancestor that is in the animator, unless `membersMayBeStale`:
    /// a chain grown at its deep end is then O(1) per link, not O(depth).
    private func isInTree(_ b: DynamicBehavior, membersMayBeStale: Bool) -> Bool {
        var root = b
        while let p = root.parent {   // no cycles: addChildBehavior refuses them
            if !membersMayBeStale && p.dynamicAnimator === self { return true }
            root = p
        }
        return topLevel.contains(root)
    }

    /// The behaviours of the animator under `root`, which is no longer in its tree, leave it.
    private func leave(_ root: DynamicBehavior) {
        var stack = [root]
        while let b = stack.popLast() {
            if b.dynamicAnimator === self {
                itemsToWake += b.heldItems
                b.willMove(to: nil)
                b.detach(from: self)
                b.dynamicAnimator = nil
            }
            stack.append(contentsOf: b.childBehaviors.reversed())
        }
    }

    /// The behaviours under `root`, which is in the tree, join the animator. Children are listed
    /// after their parent's `willMove(to:)`, so those a composite adds there (UIKit's place to
    /// build one, while its `dynamicAnimator` is still nil) join too.
    private func join(_ root: DynamicBehavior) {
        var stack = [root]
        while let b = stack.popLast() {
            if b.dynamicAnimator !== self {
                b.willMove(to: self)
                b.dynamicAnimator = self
                let pending = b.pendingDiagnostics
                b.pendingDiagnostics = []
                for d in pending { report(d) }
                b.attach(to: self)
                itemsToWake += b.heldItems
            }
            stack.append(contentsOf: b.childBehaviors.reversed())
        }
    }

    /// The behaviours under `roots`, parents before children, each once.
    private func depthFirst(_ roots: [DynamicBehavior]) -> [DynamicBehavior] {
        var result: [DynamicBehavior] = []
        var seen = Set<ObjectIdentifier>()
        var stack: [DynamicBehavior] = roots.reversed()
        while let b = stack.popLast() {
            guard seen.insert(ObjectIdentifier(b)).inserted else { continue }
            result.append(b)
            stack.append(contentsOf: b.childBehaviors.reversed())
        }
        return result
    }

    // MARK: The world

    /// Brings the world up to date with the behaviours, unless inside a step's callbacks (then it
    /// happens at the end of the step) or inside a synchronisation: a `diagnosticHandler` called
    /// from it may change behaviours or query the animator, and a nested pass would rebuild the
    /// records the outer one is walking. Such changes set `needsSync` again and are picked up by
    /// the next synchronisation.
    func ensureSynced() {
        guard !isLocked, !isSyncing, needsSync else { return }
        // A reference-bounds boundary built now uses the reference view's bounds of now. Read
        // before the pass: a change resumes the animator, and the delegate hears that outside it.
        refreshReferenceBounds()
        isSyncing = true
        // Records, shapes and group members change in the pass: the scene is stale after it.
        defer { isSyncing = false; sceneVersion &+= 1 }
        if treeDirty && !isReconciling { reconcileTree() }
        needsSync = false
        let joined = syncItems()
        rejoinMovedItems(except: joined)
        resolveItemProperties()
        updateFilters()
        for b in flat { b.syncWorld(self) }
        if !deferredVelocities.isEmpty {
            // After every other change, as if each had synchronised when it was asked for.
            let deferred = deferredVelocities
            deferredVelocities = []
            for v in deferred { v.behavior.applyDeferred(v, in: self) }
        }
        // Items that left may have held others up: then everything wakes. Otherwise only the
        // items of behaviours that joined or left (new bodies start awake anyway).
        if wakeAllOnSync {
            for r in records { world.wake(r.body) }
        } else {
            for item in itemsToWake {
                if let r = recordByID[ObjectIdentifier(item)] { world.wake(r.body) }
            }
        }
        wakeAllOnSync = false
        itemsToWake.removeAll()
    }

    /// Creates bodies for items that a behaviour now holds and destroys those of items no
    /// behaviour holds. Group members used on their own are ignored (with a diagnostic). Returns
    /// the items that joined.
    private func syncItems() -> Set<ObjectIdentifier> {
        // The items wanted, in depth-first order of first mention.
        var wanted: [any DynamicItem] = []
        var wantedIDs = Set<ObjectIdentifier>()
        var groups: [DynamicItemGroup] = []
        for b in flat {
            for item in b.heldItems where wantedIDs.insert(ObjectIdentifier(item)).inserted {
                wanted.append(item)
                if let g = item as? DynamicItemGroup { groups.append(g) }
            }
        }
        // Members of wanted groups cannot also be items of their own.
        var memberIDs = Set<ObjectIdentifier>()
        for g in groups { for m in g.items { memberIDs.insert(ObjectIdentifier(m)) } }
        if !memberIDs.isEmpty {
            wanted = wanted.filter { item in
                guard memberIDs.contains(ObjectIdentifier(item)) else { return true }
                if item is DynamicItemGroup {
                    reportOnce(.groupConflict(item: ObjectIdentifier(item)),
                               "A \(itemLabel(item)) is a group inside another group; groups cannot nest, so it is ignored.")
                } else {
                    reportOnce(.groupConflict(item: ObjectIdentifier(item)),
                               "The \(itemLabel(item)) is in a behaviour on its own and in a group; it moves with its group only.")
                }
                return false
            }
            wantedIDs = Set(wanted.map { ObjectIdentifier($0) })
        }
        // Leave, in join order.
        var changed = false
        if records.contains(where: { !wantedIDs.contains($0.id) }) {
            var kept: [ItemRecord] = []
            for r in records {
                if wantedIDs.contains(r.id) { kept.append(r) } else { destroyRecord(r); changed = true }
            }
            records = kept
        }
        if changed { wakeAllOnSync = true }
        // Join, in depth-first order.
        var joined = Set<ObjectIdentifier>()
        for item in wanted where recordByID[ObjectIdentifier(item)] == nil {
            if let r = makeRecord(for: item) { records.append(r); joined.insert(r.id) }
        }
        return joined
    }

    /// Items that left every behaviour and came back within one frame keep their record (the
    /// synchronisation sees only where they ended up), but on iOS they left the world and joined it
    /// again: a joining item takes its state from the item at that moment. So an item whose
    /// membership changed since the last synchronisation and whose `center` (or transform) is no
    /// longer what the animator last wrote was moved by hand while it was out: it is read again,
    /// as a new item is, at rest. (On iOS a centre set by hand on an item that never left is
    /// overwritten by the next step; that case is untouched here, since its membership did not change.)
    private func rejoinMovedItems(except joined: Set<ObjectIdentifier>) {
        guard !itemsToWake.isEmpty else { return }
        for item in itemsToWake where !joined.contains(ObjectIdentifier(item)) {
            guard let r = recordByID[ObjectIdentifier(item)] else { continue }
            var moved = item.center != r.lastCenter
            if !moved, let cache = r.transformCache, cache.angle == r.lastAngle { moved = item.transform != cache.transform }
            guard moved, world.isValid(r.body) else { continue }
            reread(r)
            world.setLinearVelocity(r.body, .zero)
            world.setAngularVelocity(r.body, 0)
        }
    }

    private func destroyRecord(_ r: ItemRecord) {
        world.destroyBody(r.body)
        recordByID[r.id] = nil
        for m in r.members where groupOfMember[ObjectIdentifier(m.item)] === r {
            groupOfMember[ObjectIdentifier(m.item)] = nil
        }
        recordSlots.release(r.slot)
    }

    /// Reads the item and builds its body. Returns nil (with a diagnostic) for an empty group.
    private func makeRecord(for item: any DynamicItem) -> ItemRecord? {
        let label = itemLabel(item)
        var members: [GroupMember] = []
        if let group = item as? DynamicItemGroup {
            for m in group.items {
                let mid = ObjectIdentifier(m)
                if m is DynamicItemGroup {
                    reportOnce(.groupConflict(item: mid),
                               "A group contains another group; groups cannot nest, so the inner group is left out.")
                    continue
                }
                if groupOfMember[mid] != nil {
                    reportOnce(.groupConflict(item: mid),
                               "The \(itemLabel(m)) is in two groups; it is left out of the later one.")
                    continue
                }
                if members.contains(where: { $0.item === m }) { continue }
                members.append(GroupMember(item: m, offset: .zero, angle: 0))
            }
            if members.isEmpty {
                reportOnce(.groupConflict(item: ObjectIdentifier(item)),
                           "A group with no usable members cannot join the animator; it is ignored.")
                return nil
            }
        }
        let slot = recordSlots.claim()
        let r = ItemRecord(item: item, slot: slot)
        r.members = members
        recordSlots.fill(slot, with: r)
        recordByID[r.id] = r
        for m in members { groupOfMember[ObjectIdentifier(m.item)] = r }

        let (center, angle) = readPose(of: item, label: label, fallbackCenter: .zero, fallbackAngle: 0)
        if r.isGroup { setMemberOffsets(r, groupCenter: center, groupAngle: angle) }
        var def = BodyDef()
        def.type = .dynamic
        def.position = Vec2(center)
        def.angle = Float(angle)
        def.userData = EngineOwner.item(slot: slot).userData
        r.body = world.createBody(def)
        notePlaced(r, center, angle)
        buildShapes(r)
        return r
    }

    /// The item's center and rotation; non-finite values are reported and replaced by the fallbacks.
    func readPose(of item: any DynamicItem, label: String, fallbackCenter: CGPoint, fallbackAngle: CGFloat) -> (CGPoint, CGFloat) {
        var center = item.center
        if !center.isFiniteAnimatorValue {
            report(.unusableItemState(item: ObjectIdentifier(item), property: "center"),
                   "The \(label) has a non-finite center (\(center.x), \(center.y)); using (\(fallbackCenter.x), \(fallbackCenter.y)).")
            center = fallbackCenter
        } else if abs(center.x) > 1e7 || abs(center.y) > 1e7 {
            report(.unusableItemState(item: ObjectIdentifier(item), property: "center"),
                   "The \(label) has a center beyond 10⁷ pt (\(center.x), \(center.y)); using (\(fallbackCenter.x), \(fallbackCenter.y)).")
            center = fallbackCenter
        }
        var angle = item.transform.animatorAngle
        let t = item.transform
        if !(t.a.isFinite && t.b.isFinite) || !angle.isFinite {
            report(.unusableItemState(item: ObjectIdentifier(item), property: "transform"),
                   "The \(label) has a non-finite transform; using a rotation of \(fallbackAngle) rad.")
            angle = fallbackAngle
        }
        return (center, angle)
    }

    /// Records each member's pose in the group's frame from the members' current states.
    private func setMemberOffsets(_ r: ItemRecord, groupCenter: CGPoint, groupAngle: CGFloat) {
        for i in r.members.indices {
            let m = r.members[i].item
            let (c, a) = readPose(of: m, label: itemLabel(m), fallbackCenter: groupCenter, fallbackAngle: groupAngle)
            let d = CGPoint(x: c.x - groupCenter.x, y: c.y - groupCenter.y).rotatedForAnimator(by: -groupAngle)
            r.members[i].offset = d
            r.members[i].angle = a - groupAngle
        }
    }

    /// The inputs of the record's shapes as they are now.
    func currentSignature(_ r: ItemRecord) -> [ShapeSignature] {
        r.isGroup ? r.members.map { ShapeSignature($0.item) } : [ShapeSignature(r.item)]
    }

    /// (Re)creates the record's shapes from the item's (or members') current sizes.
    func buildShapes(_ r: ItemRecord) {
        sceneVersion &+= 1   // also from `updateItem(usingCurrentState:)`, outside a pass
        r.shapeSignature = currentSignature(r)
        for s in r.shapes { world.destroyShape(s) }
        r.shapes = []
        r.densityScales = []
        var plans: [ItemShapePlan] = []
        if r.isGroup {
            for m in r.members {
                let label = itemLabel(m.item)
                let id = ObjectIdentifier(m.item)
                let size = ItemShapes.sanitizedSize(m.item.bounds.size, label: label) {
                    report(.unusableItemState(item: id, property: "bounds"), $0)
                }
                plans += ItemShapes.plans(for: m.item, size: size, offset: m.offset, angle: m.angle, label: label) {
                    report(.collisionShapeReplaced(item: id), $0)
                }
            }
            let s = r.item.bounds.size
            r.size = s.width.isFinite && s.height.isFinite ? CGSize(width: abs(s.width), height: abs(s.height)) : .zero
        } else {
            let label = itemLabel(r.item)
            let size = ItemShapes.sanitizedSize(r.item.bounds.size, label: label) {
                report(.unusableItemState(item: r.id, property: "bounds"), $0)
            }
            r.size = size
            plans = ItemShapes.plans(for: r.item, size: size, offset: .zero, angle: 0, label: label) {
                report(.collisionShapeReplaced(item: r.id), $0)
            }
        }
        for plan in plans {
            var def = ShapeDef()
            def.density = Float(r.properties.density) * plan.densityScale
            def.friction = Float(r.properties.friction)
            def.restitution = Float(r.properties.elasticity)
            def.filter = r.filter
            def.userData = EngineOwner.item(slot: r.slot).userData
            var shape = world.createShape(on: r.body, def, plan.geometry)
            if shape == nil {
                // The engine refused the geometry (degenerate after welding): a 1 pt box keeps the body whole.
                report(.collisionShapeReplaced(item: r.id),
                       "The \(itemLabel(r.item)) produced a degenerate collision shape; a 1 pt square is used instead.")
                shape = world.createShape(on: r.body, def, .box(halfWidth: 0.5, halfHeight: 0.5, center: .zero, angle: 0))
            }
            if let s = shape {
                r.shapes.append(s)
                r.densityScales.append(plan.densityScale)
            }
        }
    }

    /// `updateItem(usingCurrentState:)`: pose and size re-read, velocity kept.
    func reread(_ r: ItemRecord) {
        let v = world.linearVelocity(r.body)
        let w = world.angularVelocity(r.body)
        let current = world.position(r.body).cgPoint
        let currentAngle = CGFloat(world.angle(r.body))
        let (center, angle) = readPose(of: r.item, label: itemLabel(r.item), fallbackCenter: current, fallbackAngle: currentAngle)
        world.setTransform(r.body, position: Vec2(center), angle: Float(angle))
        // Rebuilding drops the item's contacts (and their warm start): only when the shape changed.
        if currentSignature(r) != r.shapeSignature { buildShapes(r) }
        world.setLinearVelocity(r.body, v)
        world.setAngularVelocity(r.body, w)
        notePlaced(r, center, angle)
    }

    // MARK: Materials

    /// Resolves every record's properties from the item behaviours (last in depth-first order
    /// wins, per explicitly set property) and applies what changed.
    private func resolveItemProperties() {
        for r in records { r.resolvedProperties = ItemProperties() }
        for b in flat {
            guard let ib = b as? DynamicItemBehavior else { continue }
            for item in ib.items {
                guard let r = recordByID[ObjectIdentifier(item)] else { continue }
                ib.overlay(&r.resolvedProperties)
            }
        }
        for r in records where r.resolvedProperties != r.properties { apply(r.resolvedProperties, to: r) }
    }

    private func apply(_ p: ItemProperties, to r: ItemRecord) {
        let old = r.properties
        r.properties = p
        if p.isAnchored != old.isAnchored {
            world.setBodyType(r.body, p.isAnchored ? .static : .dynamic)
        }
        if p.allowsRotation != old.allowsRotation { world.setFixedRotation(r.body, !p.allowsRotation) }
        if p.density != old.density {
            for (s, scale) in zip(r.shapes, r.densityScales) { world.setDensity(s, Float(p.density) * scale) }
        }
        if p.friction != old.friction { for s in r.shapes { world.setFriction(s, Float(p.friction)) } }
        if p.elasticity != old.elasticity { for s in r.shapes { world.setRestitution(s, Float(p.elasticity)) } }
        if p.resistance != old.resistance || p.angularResistance != old.angularResistance {
            world.setDamping(r.body, linear: Float(p.resistance), angular: Float(p.angularResistance))
        }
        world.wake(r.body)
    }

    // MARK: Collision filters

    /// Recomputes every item's filter from the collision behaviours holding it (see `CollisionBits`).
    private func updateFilters() {
        for r in records { r.itemModeBits = 0; r.boundaryModeBits = 0 }
        for cb in collisionBehaviors {
            guard let slot = cb.slot else { continue }
            let mode = cb.collisionMode
            for item in cb.items {
                guard let r = recordByID[ObjectIdentifier(item)] else { continue }
                if mode.contains(.items) { r.itemModeBits |= CollisionBits.itemMode(slot) }
                if mode.contains(.boundaries) { r.boundaryModeBits |= CollisionBits.boundaryMode(slot) }
            }
        }
        for r in records {
            let f = Filter(categoryBits: r.itemModeBits | CollisionBits.item, maskBits: r.itemModeBits | r.boundaryModeBits)
            guard f != r.filter else { continue }
            r.filter = f
            for s in r.shapes { world.setFilter(s, f) }
            world.wake(r.body)
        }
    }

    // MARK: Collision slots and boundary bodies

    /// The lowest free collision slot, or nil (with a diagnostic) when all 31 are taken.
    func claimCollisionSlot(for behavior: CollisionBehavior) -> Int? {
        guard freeCollisionSlots != 0 else {
            report(.tooManyCollisionBehaviors(behavior: ObjectIdentifier(behavior)),
                   "An animator tells at most \(CollisionBits.maxBehaviors) collision behaviours apart; this CollisionBehavior collides nothing.")
            return nil
        }
        let k = freeCollisionSlots.trailingZeroBitCount
        freeCollisionSlots &= ~(1 << UInt32(k))
        collisionSlots[k] = behavior
        return k
    }

    func releaseCollisionSlot(_ k: Int) {
        guard collisionSlots.indices.contains(k) else { return }
        collisionSlots[k] = nil
        freeCollisionSlots |= 1 << UInt32(k)
    }

    /// The free-slot bits of `slots` (bit k: slot k is empty).
    static func freeSlotMask(of slots: [CollisionBehavior?]) -> UInt32 {
        var mask: UInt32 = 0
        for (k, b) in slots.enumerated() where b == nil && k < 32 { mask |= 1 << UInt32(k) }
        return mask
    }

    /// Creates a static body of `segments` owned by `behavior` (collision slot `slot`). Returns its
    /// boundary slot and body, or nil when no segment is long enough for the engine.
    func makeBoundaryBody(segments: [(CGPoint, CGPoint)], behavior: CollisionBehavior, slot: Int,
                          identifier: AnyHashable?) -> (slot: Int, body: BodyID)? {
        var bodyDef = BodyDef()
        bodyDef.type = .static
        bodyDef.userData = EngineOwner.ground.userData
        let body = world.createBody(bodyDef)
        let boundarySlot = boundarySlots.claim()
        var def = ShapeDef()
        def.density = 0
        def.friction = 0
        def.restitution = 0
        def.usesOtherMaterial = true
        def.filter = Filter(categoryBits: CollisionBits.boundaryMode(slot), maskBits: CollisionBits.item)
        def.userData = EngineOwner.boundary(slot: boundarySlot).userData
        var count = 0
        for (a, b) in segments where world.createShape(on: body, def, .segment(Vec2(a), Vec2(b))) != nil { count += 1 }
        guard count > 0 else {
            world.destroyBody(body)
            boundarySlots.release(boundarySlot)
            return nil
        }
        boundarySlots.fill(boundarySlot, with: BoundaryRecord(behavior: behavior, identifier: identifier, body: body))
        return (boundarySlot, body)
    }

    func destroyBoundaryBody(slot: Int) {
        guard let b = boundarySlots[slot] else { return }
        let firstEnded = world.endEvents.count
        world.destroyBody(b.body)
        for e in world.endEvents[firstEnded...] {
            // One shape is the boundary's, the other an item's.
            guard let itemSlot = world.owner(of: e.shapeA).itemSlot ?? world.owner(of: e.shapeB).itemSlot else { continue }
            if let r = recordSlots[itemSlot] { endedByRemoval.append((b, r)) }
        }
        boundarySlots.release(slot)
    }
}
