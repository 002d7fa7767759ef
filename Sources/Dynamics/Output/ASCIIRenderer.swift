import DynamicsEngine
import Foundation

/// Draws an animator's world as text: a debug view for terminals, logs and golden-file tests.
///
/// ``render(_:)`` returns exactly ``height`` lines of exactly ``width`` characters, joined by
/// `"\n"` (no line ending after the last). What it draws, back to front:
/// - the reference bounds as a frame around the picture (`+`, `-`, `|`);
/// - every collision boundary: segments and flattened paths, each segment drawn with the
///   character that follows its slope on screen (`-`, `|`, `/`, `\`); the reference-bounds
///   boundary shows as the frame, or as its own rectangle when it is inset;
/// - attachments as lines of `.` (anchor ↔ item center, item center ↔ item center);
/// - items as filled shapes, rotated, exactly as the engine simulates them: rectangles `#`,
///   ellipses `@`, ``DynamicItemCollisionBoundsType/path`` items `%` (the convex outline in use),
///   every other item (in the order items joined) in `=`, `O` and `&` instead, so touching items
///   stay apart; a ``DynamicItemGroup`` draws each member with its own shape's character;
/// - attachment anchors `o` and snap points `x`;
/// - the status line (``showsStatusLine``): time, items, resting items, touching contacts,
///   running or paused.
///
/// In ``braille`` mode every cell holds 2 × 4 dots (Unicode braille patterns), so motion looks
/// smooth, and all marks are dots; the status line stays text.
///
/// **What is shown.** ``visibleRect`` when set; otherwise the animator's reference bounds; for an
/// animator made with ``DynamicAnimator/init()``, the bounding box of its items (and anchors),
/// padded by 5 %, recomputed every frame. The region is scaled to fit and centred.
///
/// **Aspect.** Terminal cells are about twice as tall as they are wide (``cellAspectRatio``, 2).
/// With ``correctsAspectRatio`` (the default) a point covers the same distance on screen across
/// and down, so a square item looks square: in plain mode it spans about twice as many columns
/// as rows.
///
/// Rendering reads the animator and changes nothing a step would not: it first applies pending
/// behaviour changes to the world (as ``DynamicAnimator/items(in:)`` does), so a frame drawn
/// before the first step shows the items where they start.
///
/// ```swift
/// let renderer = ASCIIRenderer(width: 80, height: 24)
/// animator.addFrameObserver { _ in print(renderer.render(animator)) }
/// ```
public struct ASCIIRenderer: Sendable {
    /// The width of the picture, in characters (terminal columns). Negative values count as 0,
    /// values above ``maximumSide`` (1000) as 1000, with a diagnostic on the animator drawn.
    public var width: Int

    /// The height of the picture, in lines, the status line included. Negative values count as
    /// 0, values above ``maximumSide`` (1000) as 1000, with a diagnostic on the animator drawn.
    public var height: Int

    /// The largest width and height drawn, in characters: 1000 (a million cells; more would only
    /// exhaust memory).
    public static let maximumSide = 1000

    /// Whether to draw with Unicode braille patterns, 2 × 4 dots a cell, for smooth motion.
    /// Default `false`: one character a cell, shapes in plain ASCII.
    public var braille = false

    /// Whether the last line is a status line (time, items, resting, contacts, running/paused).
    /// Default `true`. With a height of 1 the picture is the status line alone.
    public var showsStatusLine = true

    /// Whether a point spans the same distance on screen across and down, so squares look
    /// square (the region shown is then centred, with blank margins). Default `true`; `false`
    /// stretches the region over the whole picture.
    public var correctsAspectRatio = true

    /// The height of a terminal cell divided by its width, used by ``correctsAspectRatio``.
    /// Default 2, right for most terminal fonts. Non-finite or non-positive values mean 2.
    public var cellAspectRatio: Double = 2

    /// Whether to draw collision boundaries (the reference-bounds frame is always drawn).
    /// Default `true`.
    public var showsBoundaries = true

    /// Whether to draw attachments, their anchors and snap points. Default `true`.
    public var showsAttachments = true

    /// The region to show, in points of the animator's coordinate space; default `nil`: the
    /// reference bounds, or the items' bounding box for an animator without reference bounds.
    /// An empty or non-finite rectangle counts as `nil`.
    public var visibleRect: CGRect? = nil

    /// Creates a renderer of `width × height` characters, the status line included.
    ///
    /// - Parameters:
    ///   - width: Columns, in characters (e.g. 80).
    ///   - height: Lines (e.g. 24).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    // MARK: Rendering

    /// The animator's world as `height` lines of `width` characters joined by `"\n"`, with the
    /// default status line when ``showsStatusLine`` is on.
    ///
    /// - Parameter animator: The animator to draw.
    public func render(_ animator: DynamicAnimator) -> String {
        lines(animator).joined(separator: "\n")
    }

    /// The animator's world as `height` lines of `width` characters joined by `"\n"`, with
    /// `statusLine` as the last line (cut or padded to `width`) when ``showsStatusLine`` is on.
    ///
    /// - Parameters:
    ///   - animator: The animator to draw.
    ///   - statusLine: The text of the status line, e.g. ``statusLine(for:)`` plus your own
    ///     figures. Control characters show as spaces; one character is one column.
    public func render(_ animator: DynamicAnimator, statusLine: String) -> String {
        lines(animator, statusLine: statusLine).joined(separator: "\n")
    }

    /// The picture as an array of exactly `height` strings of exactly `width` characters.
    ///
    /// - Parameters:
    ///   - animator: The animator to draw.
    ///   - statusLine: The status line's text; default `nil`: ``statusLine(for:)``.
    public func lines(_ animator: DynamicAnimator, statusLine: String? = nil) -> [String] {
        animator.ensureSynced()
        if width > Self.maximumSide || height > Self.maximumSide {
            animator.reportOnce("ASCIIRenderer: \(width) × \(height) characters is too large; drawing at most \(Self.maximumSide) × \(Self.maximumSide).")
        }
        let columns = min(max(0, width), Self.maximumSide), rows = min(max(0, height), Self.maximumSide)
        let pictureRows = showsStatusLine && rows > 0 ? rows - 1 : rows
        var picture = TextCanvas(width: columns, height: pictureRows, mode: braille ? .braille : .plain)
        if pictureRows > 0 && columns > 0 {
            draw(animator, on: &picture)
        }
        var result = picture.lines()
        if showsStatusLine && rows > 0 {
            var status = TextCanvas(width: columns, height: 1)
            status.drawText(statusLine ?? self.statusLine(for: animator), atColumn: 0, row: 0)
            result += status.lines()
        }
        return result
    }

    /// The default status line: simulated time (s), items, resting items, touching contacts and
    /// whether the animator runs, e.g. `t 1.25 s  items 12  resting 3  contacts 9  running`.
    ///
    /// - Parameter animator: The animator to describe.
    public func statusLine(for animator: DynamicAnimator) -> String {
        animator.ensureSynced()
        let s = animator.statistics
        let time = String(format: "%.2f", animator.elapsedTime)
        return "t \(time) s  items \(s.items)  resting \(s.restingItems)  contacts \(s.touchingContacts)  "
            + (animator.isRunning ? "running" : "paused")
    }

    // MARK: Drawing

    /// The height of a terminal cell over its width, sanitised.
    var effectiveCellAspect: Double {
        cellAspectRatio.isFinite && cellAspectRatio > 0 ? cellAspectRatio : 2
    }

    /// Draws everything but the status line on `canvas`.
    private func draw(_ animator: DynamicAnimator, on canvas: inout TextCanvas) {
        let region = shownRegion(animator)
        let view = Viewport(region: region.rect, framed: region.isReferenceBounds, dotsAcross: canvas.dotWidth,
                            dotsDown: canvas.dotHeight, dotAspect: correctsAspectRatio ? dotAspect : nil)

        if let bounds = animator.referenceBounds {
            canvas.drawFrame(view.frame(around: bounds))
        }
        if showsBoundaries {
            for (a, b) in boundarySegments(animator) {
                let p = view.mapLineEnd(a), q = view.mapLineEnd(b)
                canvas.drawLine(from: p, to: q, character: slopeCharacter(from: p, to: q))
            }
        }
        var markers: [(CGPoint, Character)] = []
        if showsAttachments {
            for behavior in animator.flat {
                if let attachment = behavior as? AttachmentBehavior {
                    let items = attachment.items
                    guard let first = items.first else { continue }
                    if attachment.attachedBehaviorType == .anchor {
                        let anchor = view.map(attachment.anchorPoint)
                        canvas.drawLine(from: anchor, to: view.map(first.center), character: ".")
                        markers.append((anchor, "o"))
                    } else if items.count > 1 {
                        canvas.drawLine(from: view.map(first.center), to: view.map(items[1].center), character: ".")
                    }
                } else if let snap = behavior as? SnapBehavior {
                    markers.append((view.map(snap.snapPoint), "x"))
                }
            }
        }
        let world = animator.world
        for (index, record) in animator.records.enumerated() {
            for (k, shape) in record.shapes.enumerated() {
                let type = record.isGroup && k < record.members.count
                    ? record.members[k].item.collisionBoundsType : record.item.collisionBoundsType
                let mark = Self.fillCharacter(type, alternate: index % 2 == 1)
                let outline = world.outline(shape)
                if outline.points.count == 1 {
                    let c = view.map(outline.points[0].cgPoint)
                    let r = Double(outline.radius)
                    canvas.fillEllipse(center: c, radii: CGSize(width: r * view.scaleX, height: r * view.scaleY), character: mark)
                } else if outline.points.count > 2 {
                    canvas.fillPolygon(outline.points.map { view.map($0.cgPoint) }, character: mark)
                }
            }
        }
        for (point, mark) in markers {
            canvas.plot(x: Double(point.x), y: Double(point.y), character: mark)
        }
    }

    /// The height of a dot over its width: a cell's aspect, times 2/4 for braille dots.
    private var dotAspect: Double {
        braille ? effectiveCellAspect * 2 / 4 : effectiveCellAspect
    }

    /// The plain-mode fill character of an item's collision type: `#`, `@`, `%`, or, for every
    /// other item (`alternate`), `=`, `O`, `&`, so neighbours in a stack stay apart.
    static func fillCharacter(_ type: DynamicItemCollisionBoundsType, alternate: Bool = false) -> Character {
        switch type {
        case .rectangle: return alternate ? "=" : "#"
        case .ellipse: return alternate ? "O" : "@"
        case .path: return alternate ? "&" : "%"
        }
    }

    /// The plain-mode character of a line between two dot positions, following its slope on
    /// screen (y down): `-`, `|`, `\` (down to the right) or `/` (up to the right).
    func slopeCharacter(from p: CGPoint, to q: CGPoint) -> Character {
        let dx = Double(q.x - p.x)
        let dy = Double(q.y - p.y) * dotAspect
        if abs(dy) <= 0.4 * abs(dx) { return "-" }
        if abs(dx) <= 0.4 * abs(dy) { return "|" }
        return (dx > 0) == (dy > 0) ? "\\" : "/"
    }

    // MARK: What to show

    /// The region shown, in points, and whether it is the reference bounds (which get a frame
    /// and a one-dot margin for it).
    func shownRegion(_ animator: DynamicAnimator) -> (rect: CGRect, isReferenceBounds: Bool) {
        if let rect = visibleRect?.standardized, Self.isUsable(rect) {
            return (rect, false)
        }
        if let bounds = animator.referenceBounds, Self.isUsable(bounds) {
            return (bounds, true)
        }
        return (fittedRegion(animator), false)
    }

    private static func isUsable(_ rect: CGRect) -> Bool {
        !rect.isNull && rect.origin.x.isFinite && rect.origin.y.isFinite && rect.width.isFinite
            && rect.height.isFinite && rect.width > 0 && rect.height > 0
    }

    /// The items' bounding box (with attachment anchors and snap points), padded by 5 % of its
    /// larger side plus 1 pt; the boundaries' box when there are no items; 100 × 100 pt at the
    /// origin when there is nothing at all.
    private func fittedRegion(_ animator: DynamicAnimator) -> CGRect {
        var box = BoundingBox()
        for record in animator.records {
            for shape in record.shapes {
                let b = animator.world.aabb(shape)
                box.add(b.lower.cgPoint)
                box.add(b.upper.cgPoint)
            }
        }
        for behavior in animator.flat {
            if let a = behavior as? AttachmentBehavior, a.attachedBehaviorType == .anchor { box.add(a.anchorPoint) }
            if let s = behavior as? SnapBehavior { box.add(s.snapPoint) }
        }
        if box.isEmpty {
            for (a, b) in boundarySegments(animator) {
                box.add(a)
                box.add(b)
            }
        }
        guard var rect = box.rect else { return CGRect(x: 0, y: 0, width: 100, height: 100) }
        let side = max(rect.width, rect.height, 10)
        let pad = 0.05 * side + 1
        rect = rect.insetBy(dx: -pad, dy: -pad)
        // A line of items is given some thickness so it is not magnified without limit.
        if rect.width < side / 4 { rect = rect.insetBy(dx: -(side / 4 - rect.width) / 2, dy: 0) }
        if rect.height < side / 4 { rect = rect.insetBy(dx: 0, dy: -(side / 4 - rect.height) / 2) }
        return rect
    }

    /// Every boundary segment to draw, in points: explicit boundaries of every collision
    /// behaviour, and the reference-bounds boundary when it is inset (at zero insets the frame
    /// shows it).
    func boundarySegments(_ animator: DynamicAnimator) -> [(CGPoint, CGPoint)] {
        var segments: [(CGPoint, CGPoint)] = []
        for case let collision as CollisionBehavior in animator.flat {
            if collision.translatesReferenceBoundsIntoBoundary, let bounds = animator.referenceBounds,
               collision.referenceBoundsInsets != .zero {
                let i = collision.referenceBoundsInsets
                let minX = bounds.minX + i.left, maxX = bounds.maxX - i.right
                let minY = bounds.minY + i.top, maxY = bounds.maxY - i.bottom
                if minX < maxX, minY < maxY {
                    let tl = CGPoint(x: minX, y: minY), tr = CGPoint(x: maxX, y: minY)
                    let br = CGPoint(x: maxX, y: maxY), bl = CGPoint(x: minX, y: maxY)
                    segments += [(tl, tr), (tr, br), (br, bl), (bl, tl)]
                }
            }
            for identifier in collision.boundaryIdentifiers {
                guard let path = collision.boundary(withIdentifier: identifier) else { continue }
                for polyline in path.flattened(tolerance: 0.5) {
                    let p = polyline.points
                    for k in 0 ..< p.count - 1 { segments.append((p[k], p[k + 1])) }
                    if polyline.isClosed, p.count > 2 { segments.append((p[p.count - 1], p[0])) }
                }
            }
        }
        return segments
    }
}

// MARK: - Helpers

/// The mapping from points to dots: the shown region, scaled and centred in the picture.
private struct Viewport {
    /// Dots per point across and down.
    var scaleX: Double, scaleY: Double
    /// The dot position of the region's top-left corner.
    var originX: Double, originY: Double
    var region: CGRect

    /// - Parameters:
    ///   - framed: Keep a one-dot margin around the region for a frame.
    ///   - dotAspect: The height over the width of a dot, to keep points square; nil stretches.
    init(region: CGRect, framed: Bool, dotsAcross: Int, dotsDown: Int, dotAspect: Double?) {
        self.region = region
        var margin = framed ? 1.0 : 0.0
        if Double(dotsAcross) - 2 * margin < 1 || Double(dotsDown) - 2 * margin < 1 { margin = 0 }
        let innerW = max(1, Double(dotsAcross) - 2 * margin)
        let innerH = max(1, Double(dotsDown) - 2 * margin)
        let w = Double(region.width), h = Double(region.height)
        var mappedW = innerW, mappedH = innerH
        if let aspect = dotAspect {
            // Dots across per point, the same on screen as `s / aspect` dots down per point.
            let s = min(innerW / w, innerH * aspect / h)
            mappedW = min(innerW, max(1, (w * s).rounded()))
            mappedH = min(innerH, max(1, (h * s / aspect).rounded()))
        }
        scaleX = mappedW / w
        scaleY = mappedH / h
        originX = margin + ((innerW - mappedW) / 2).rounded(.down)
        originY = margin + ((innerH - mappedH) / 2).rounded(.down)
    }

    /// The dot position of a point.
    func map(_ p: CGPoint) -> CGPoint {
        CGPoint(x: originX + (Double(p.x) - Double(region.minX)) * scaleX,
                y: originY + (Double(p.y) - Double(region.minY)) * scaleY)
    }

    /// The dot position of a boundary's end. A point on the region's left or top edge maps to
    /// the edge of the first dot inside; it is moved half a dot out, onto the frame, so a
    /// boundary along any edge of the reference bounds is drawn on the frame (as points on the
    /// right and bottom edges already are), not one dot inside.
    func mapLineEnd(_ p: CGPoint) -> CGPoint {
        var q = map(p)
        if abs(Double(q.x) - originX) < 1e-6 { q.x = originX - 0.5 }
        if abs(Double(q.y) - originY) < 1e-6 { q.y = originY - 0.5 }
        return q
    }

    /// The centres of the dots just outside `rect` (points): where its frame goes.
    func frame(around rect: CGRect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let a = map(CGPoint(x: rect.minX, y: rect.minY)), b = map(CGPoint(x: rect.maxX, y: rect.maxY))
        return (Double(a.x).rounded() - 0.5, Double(a.y).rounded() - 0.5,
                Double(b.x).rounded() + 0.5, Double(b.y).rounded() + 0.5)
    }
}

extension TextCanvas {
    /// Draws a rectangle's outline through the given dot centres: `-` along the top and bottom,
    /// `|` down the sides, `+` at the corners.
    fileprivate mutating func drawFrame(_ f: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        let tl = CGPoint(x: f.minX, y: f.minY), tr = CGPoint(x: f.maxX, y: f.minY)
        let bl = CGPoint(x: f.minX, y: f.maxY), br = CGPoint(x: f.maxX, y: f.maxY)
        drawLine(from: tl, to: tr, character: "-")
        drawLine(from: bl, to: br, character: "-")
        drawLine(from: tl, to: bl, character: "|")
        drawLine(from: tr, to: br, character: "|")
        for corner in [tl, tr, bl, br] { plot(x: Double(corner.x), y: Double(corner.y), character: "+") }
    }
}

/// An axis-aligned box grown point by point.
private struct BoundingBox {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }

    mutating func add(_ p: CGPoint) {
        let x = Double(p.x), y = Double(p.y)
        guard x.isFinite, y.isFinite else { return }
        minX = min(minX, x); maxX = max(maxX, x)
        minY = min(minY, y); maxY = max(maxY, y)
    }

    var rect: CGRect? {
        isEmpty ? nil : CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
