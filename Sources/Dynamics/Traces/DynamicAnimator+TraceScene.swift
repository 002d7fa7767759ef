import DynamicsEngine
import Foundation

// How an animator is described for pictures and traces. One description serves the live
// renderer, the trace writer and (read back) the replay, so a replayed frame is drawn from the
// very values the live one was.

extension DynamicAnimator {
    /// The scene now, without synchronising first (callers decide; inside a frame observer the
    /// world is exactly as the frame left it). Built once per `sceneVersion` and kept in
    /// `sceneCache`, so a picture or trace frame of an unchanged scene costs a name check per
    /// item, not a rebuild of every boundary, attachment and item description.
    func traceScene() -> TraceScene {
        if sceneCache.version != sceneVersion {
            rebuildSceneCache()
        } else {
            refreshSceneKeys()
        }
        return sceneCache.scene
    }

    /// Describes the scene again: bounds, boundaries and attachments in full, each item only
    /// when the inputs of its description changed.
    private func rebuildSceneCache() {
        let version = sceneVersion
        let decorations = traceAttachments()
        var cache = sceneCache
        sceneCache = TraceSceneCache()   // `cache` holds the only reference: no copy on write
        cache.scene.referenceBounds = usableReferenceBounds
        cache.scene.boundaries = traceBoundaries()
        cache.scene.attachments = decorations.attachments
        cache.scene.snapPoints = decorations.snapPoints
        for (position, record) in records.enumerated() {
            let inputs = traceItemInputs(record, position: position)
            if position < cache.inputs.count {
                guard cache.inputs[position] != inputs else { continue }
                cache.inputs[position] = inputs
                cache.scene.items[position] = traceItem(record, position: position)
            } else {
                cache.inputs.append(inputs)
                cache.scene.items.append(traceItem(record, position: position))
            }
        }
        if cache.inputs.count > records.count {
            cache.inputs.removeLast(cache.inputs.count - records.count)
            cache.scene.items.removeLast(cache.scene.items.count - records.count)
        }
        cache.version = version
        cache.stamp &+= 1
        sceneCache = cache
    }

    /// An item's key is its ``BasicDynamicItem/name``, which changes without telling the
    /// animator: checked on every use of the cached scene (no copy when none changed).
    private func refreshSceneKeys() {
        // Records change only with the version; a mismatch would be a missed bump: rebuild.
        guard sceneCache.inputs.count == records.count else { return rebuildSceneCache() }
        for (position, record) in records.enumerated() {
            let name = record.name
            guard name != sceneCache.inputs[position].name else { continue }
            let key = name ?? String(position)
            sceneCache.inputs[position].key = key
            sceneCache.inputs[position].name = name
            sceneCache.scene.items[position].key = key
            sceneCache.stamp &+= 1
        }
    }

    /// The reference bounds the world's boundaries were built from when they can frame a picture
    /// (finite, with an area), else nil.
    var usableReferenceBounds: CGRect? {
        guard let rect = referenceBoundsInUse?.standardized, rect.origin.x.isFinite, rect.origin.y.isFinite,
              rect.width.isFinite, rect.height.isFinite, rect.width > 0, rect.height > 0 else { return nil }
        return rect
    }

    // MARK: Items

    /// The description of the item at `position`: its shapes as the engine built them (from the
    /// inputs recorded when they were built, so a size changed without
    /// `updateItem(usingCurrentState:)` is not shown before the engine sees it).
    func traceItem(_ r: ItemRecord, position: Int) -> TraceScene.Item {
        TraceScene.Item(key: r.name ?? String(position), parts: traceParts(r))
    }

    private func traceParts(_ r: ItemRecord) -> [TraceScene.Part] {
        let signatures = r.shapeSignature.isEmpty ? currentSignature(r) : r.shapeSignature
        if r.isGroup {
            return zip(r.members, signatures).map { member, signature in
                let size = ItemShapes.sanitizedSize(signature.size, label: "") { _ in }
                return TraceScene.Part(Self.traceShape(signature, size: size), center: member.offset, angle: member.angle)
            }
        }
        guard let signature = signatures.first else { return [] }
        return [TraceScene.Part(Self.traceShape(signature, size: r.size))]
    }

    /// The shape the engine simulates for these inputs: a `.path` item whose path cannot give an
    /// outline falls back to its rectangle, as `ItemShapes.plans` does.
    private static func traceShape(_ signature: ShapeSignature, size: CGSize) -> TraceScene.Shape {
        switch signature.type {
        case .rectangle:
            return .rectangle(size)
        case .ellipse:
            return .ellipse(size)
        case .path:
            guard let hull = ItemShapes.pathOutline(signature.path, label: "", report: { _ in }) else { return .rectangle(size) }
            return .path(hull)
        }
    }

    /// What a trace item description is built from; equal inputs give an equal description, so
    /// `traceScene()` rebuilds only the descriptions whose inputs changed.
    struct TraceItemInputs: Equatable {
        var key: String
        /// The name the key was made from (nil: the key is the position).
        var name: String?
        var signatures: [ShapeSignature]
        var size: CGSize
        var memberOffsets: [CGPoint]
        var memberAngles: [CGFloat]
    }

    func traceItemInputs(_ r: ItemRecord, position: Int) -> TraceItemInputs {
        let name = r.name
        return TraceItemInputs(key: name ?? String(position), name: name, signatures: r.shapeSignature, size: r.size,
                        memberOffsets: r.members.map(\.offset), memberAngles: r.members.map(\.angle))
    }

    // MARK: Boundaries

    /// Every boundary to draw, in points: explicit boundaries of every collision behaviour
    /// (flattened at 0.5 pt), and the reference-bounds boundary when it is inset (at zero insets
    /// the frame around the reference bounds shows it).
    func traceBoundaries() -> [TraceScene.Boundary] {
        var boundaries: [TraceScene.Boundary] = []
        for case let collision as CollisionBehavior in flat {
            if collision.translatesReferenceBoundsIntoBoundary, let bounds = referenceBoundsInUse,
               collision.referenceBoundsInsets != .zero {
                let i = collision.referenceBoundsInsets
                let minX = bounds.minX + i.left, maxX = bounds.maxX - i.right
                let minY = bounds.minY + i.top, maxY = bounds.maxY - i.bottom
                if minX < maxX, minY < maxY, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite {
                    boundaries.append(TraceScene.Boundary(points: [
                        CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
                        CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY),
                    ], isClosed: true))
                }
            }
            for identifier in collision.boundaryIdentifiers {
                guard let path = collision.boundary(withIdentifier: identifier) else { continue }
                for polyline in path.flattened(tolerance: 0.5) {
                    boundaries.append(TraceScene.Boundary(points: polyline.points, isClosed: polyline.isClosed && polyline.points.count > 2))
                }
            }
        }
        return boundaries
    }

    // MARK: Attachments and snap points

    /// Attachments (anchor ↔ item center, item center ↔ item center) and snap points, in the
    /// order of the behaviour tree (depth first). An attachment to an item that is not in the
    /// world, or with a non-finite anchor, is left out.
    func traceAttachments() -> (attachments: [TraceScene.Attachment], snapPoints: [CGPoint]) {
        var attachments: [TraceScene.Attachment] = []
        var snapPoints: [CGPoint] = []
        var positions: [ObjectIdentifier: Int]?
        func point(_ item: any DynamicItem) -> TraceScene.ItemPoint? {
            if positions == nil {
                var table: [ObjectIdentifier: Int] = [:]
                for (k, r) in records.enumerated() { table[ObjectIdentifier(r)] = k }
                positions = table
            }
            let id = ObjectIdentifier(item)
            if let r = recordByID[id], let k = positions?[ObjectIdentifier(r)] {
                return TraceScene.ItemPoint(item: k)
            }
            if let group = groupOfMember[id], let k = positions?[ObjectIdentifier(group)],
               let member = group.members.first(where: { $0.item === item }) {
                return TraceScene.ItemPoint(item: k, offset: member.offset)
            }
            return nil
        }
        for behavior in flat {
            if let attachment = behavior as? AttachmentBehavior {
                let items = attachment.items
                guard let first = items.first, let a = point(first) else { continue }
                if attachment.attachedBehaviorType == .anchor {
                    let anchor = attachment.anchorPoint
                    guard anchor.isFiniteAnimatorValue else { continue }
                    attachments.append(TraceScene.Attachment(anchor: anchor, items: [a]))
                } else if items.count > 1, let b = point(items[1]) {
                    attachments.append(TraceScene.Attachment(anchor: nil, items: [a, b]))
                }
            } else if let snap = behavior as? SnapBehavior, snap.snapPoint.isFiniteAnimatorValue {
                snapPoints.append(snap.snapPoint)
            }
        }
        return (attachments, snapPoints)
    }
}

/// The scene `DynamicAnimator.traceScene()` last described, and what it was built from.
///
/// Whatever the scene shows changes only through something that moves the animator's
/// `sceneVersion`: a change that asks for a synchronisation (a behaviour's setting, a boundary,
/// an anchor or snap point, items joining or leaving, the behaviour tree), a synchronisation
/// (records, shapes, group members), `updateItem(usingCurrentState:)` (shapes), the reference
/// bounds, a snapshot restored. Item names are the exception, checked on every use.
struct TraceSceneCache {
    /// The `sceneVersion` the scene was built at; nil before the first build.
    var version: UInt64?
    /// Moves whenever ``scene`` changes, so a reader can skip comparing an unchanged scene.
    var stamp: UInt64 = 0
    /// The scene: one item per record, in record order.
    var scene = TraceScene()
    /// The inputs of each item's description in ``scene``.
    var inputs: [DynamicAnimator.TraceItemInputs] = []
}

/// Writes an animator's scene as changes: the first frame gets the whole scene, later frames
/// only what changed since (an item that joined, a moved anchor, a new boundary). The scene
/// comes from the animator's cache (`traceScene()`), so a frame of an unchanging scene costs a
/// name check per item and no comparison at all.
final class TraceSceneRecorder {
    /// The scene as the file describes it so far: items past the animator's current count are
    /// kept, since a scene file never retracts an item.
    private var scene: TraceScene?
    /// The cache's stamp when ``scene`` was last brought up to date.
    private var stamp: UInt64?

    /// The changes since the last call, for the frame numbered `frame`.
    func changes(for animator: DynamicAnimator, frame: Int) -> [TraceSceneChange] {
        let now = animator.traceScene()
        if scene != nil, stamp == animator.sceneCache.stamp { return [] }
        stamp = animator.sceneCache.stamp
        var out: [TraceSceneChange] = []
        let first = scene == nil
        var current = scene ?? TraceScene()
        if first || current.referenceBounds != now.referenceBounds {
            current.referenceBounds = now.referenceBounds
            out.append(TraceSceneChange(frame: frame, kind: .referenceBounds(now.referenceBounds)))
        }
        if current.boundaries != now.boundaries {
            current.boundaries = now.boundaries
            out.append(TraceSceneChange(frame: frame, kind: .boundaries(now.boundaries)))
        }
        for (position, item) in now.items.enumerated() {
            if position < current.items.count {
                if current.items[position] == item { continue }
                current.items[position] = item
            } else {
                current.items.append(item)
            }
            out.append(TraceSceneChange(frame: frame, kind: .item(position: position, item)))
        }
        if current.attachments != now.attachments {
            current.attachments = now.attachments
            out.append(TraceSceneChange(frame: frame, kind: .attachments(now.attachments)))
        }
        if current.snapPoints != now.snapPoints {
            current.snapPoints = now.snapPoints
            out.append(TraceSceneChange(frame: frame, kind: .snapPoints(now.snapPoints)))
        }
        scene = current
        return out
    }
}
