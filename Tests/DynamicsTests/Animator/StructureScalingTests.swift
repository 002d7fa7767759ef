import Foundation
import Testing

@testable import Dynamics

/// The lists behind `behaviors`, `childBehaviors` and behaviours' `items` add and remove in
/// amortised O(1) (`bench --setup` shows the cost per operation staying flat up to 100 000);
/// these tests check they keep order and membership exactly as the arrays they replaced.
/// Whether two sequences hold the same objects in the same order.
func identical<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Bool where A.Element: AnyObject, B.Element: AnyObject {
    a.elementsEqual(b) { $0 === $1 }
}

@Suite("Structure scaling")
struct StructureScalingTests {
    final class Token {}

    @Test func identityListKeepsOrderThroughRemovalsAndCompaction() {
        let tokens = (0..<1000).map { _ in Token() }
        var list = IdentityList<Token>()
        var reference: [Token] = []
        var refused = 0   // appends and removals the list turned down
        for t in tokens {
            if !list.append(t) { refused += 1 }
            reference.append(t)
        }
        if !list.append(tokens[3]) { refused += 1 }   // no duplicates
        #expect(refused == 1)
        // remove every third, then most of the rest (several compactions), checking as we go
        for (k, t) in tokens.enumerated() where k % 3 == 0 {
            if !list.remove(t) { refused += 1 }
            reference.removeAll { $0 === t }
        }
        var elements = list.elements
        #expect(identical(elements, reference))
        for t in tokens.prefix(900) where list.contains(t) {
            if !list.remove(t) { refused += 1 }
            reference.removeAll { $0 === t }
        }
        if !list.remove(tokens[0]) { refused += 1 }   // already gone
        #expect(refused == 2)
        #expect(list.count == reference.count && list.count == 66)
        elements = list.elements
        #expect(identical(elements, reference))
        // appends after removals go to the end
        if !list.append(tokens[0]) { refused += 1 }
        reference.append(tokens[0])
        elements = list.elements
        #expect(refused == 2 && identical(elements, reference))
        #expect(reference.allSatisfy { list.contains($0) } && !list.contains(tokens[1]))
    }

    @Test func manyChildrenJoinAndLeaveInOrder() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let parent = DynamicBehavior()
        animator.addBehavior(parent)
        let children = (0..<2000).map { k in GravityBehavior(items: [square(10, at: CGPoint(x: k % 40 * 12, y: k / 40 * 12))]) }
        for c in children { parent.addChildBehavior(c) }
        #expect(children.allSatisfy { $0.dynamicAnimator === animator })
        animator.step()
        #expect(animator.statistics.items == 2000)
        // remove the even ones: the odd ones keep their order, the even ones leave the animator
        for (k, c) in children.enumerated() where k % 2 == 0 { parent.removeChildBehavior(c) }
        let odd = children.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(identical(parent.childBehaviors, odd))
        #expect(children.enumerated().allSatisfy { ($0.offset % 2 == 0) == ($0.element.dynamicAnimator == nil) })
        animator.step()
        #expect(animator.statistics.items == 1000)
        // the depth-first list the animator steps follows the tree
        #expect(identical(animator.flat, [parent] + odd))
        // a removed child can be added again, at the end
        parent.addChildBehavior(children[0])
        #expect(parent.childBehaviors.last === children[0] && children[0].dynamicAnimator === animator)
    }

    @Test func topLevelBehaviorsAddedAndRemovedInsideAnActionKeepOrder() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let gravities = (0..<500).map { k in GravityBehavior(items: [square(10, at: CGPoint(x: k % 25 * 12, y: k / 25 * 12))]) }
        let driver = DynamicBehavior()
        var stage = 0
        driver.action = { [unowned animator] in
            if stage == 0 { for g in gravities { animator.addBehavior(g) } }
            if stage == 1 { for g in gravities.reversed() where gravities.firstIndex(where: { $0 === g })! % 5 != 0 { animator.removeBehavior(g) } }
            stage += 1
        }
        animator.addBehavior(driver)
        animator.step()
        #expect(animator.behaviors.count == 501 && identical(animator.behaviors.dropFirst(), gravities))
        animator.step()
        let kept = gravities.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        #expect(identical(animator.behaviors.dropFirst(), kept))
        #expect(gravities.enumerated().allSatisfy { ($0.offset % 5 == 0) == ($0.element.dynamicAnimator === animator) })
        animator.step()
        #expect(animator.statistics.items == 100)
    }

    @Test func itemsRemovedFromABehaviorKeepTheOthersOrder() {
        let gravity = GravityBehavior()
        let items = (0..<3000).map { k in square(5, at: CGPoint(x: k, y: 0)) }
        for i in items { gravity.addItem(i) }
        for (k, i) in items.enumerated() where k % 4 != 1 { gravity.removeItem(i) }
        let kept = items.enumerated().filter { $0.offset % 4 == 1 }.map(\.element)
        #expect(identical(gravity.items.map { $0 as AnyObject }, kept))
        gravity.addItem(items[0])
        #expect(gravity.items.count == kept.count + 1 && gravity.items.last === items[0])
    }

    /// A path of 40 cubic curves 4.4·10⁵ pt out (inside the 5·10⁵ pt accepted) flattens to tens
    /// of thousands of points at 0.5 pt: the outline keeps at most 1 024 (the O(n²) simplicity
    /// check took 96 % of the first step before). The arcs bulge outward and meet in inward
    /// corners, so the path is concave (said once) and its hull lies between the circle through
    /// the corners and the one through the control points.
    @Test func aHugeCurvedPathKeepsABoundedOutline() {
        let outline = BezierPath()
        let radius = 4.4e5, count = 40
        func point(_ a: Double, _ r: Double) -> CGPoint { CGPoint(x: r * cos(a), y: r * sin(a)) }
        outline.move(to: point(0, radius))
        for k in 0..<count {
            let a = 2 * Double.pi * Double(k) / Double(count), b = 2 * Double.pi * Double(k + 1) / Double(count)
            outline.addCurve(to: point(b, radius), controlPoint1: point(a + (b - a) / 3, 1.1 * radius),
                             controlPoint2: point(a + 2 * (b - a) / 3, 1.1 * radius))
        }
        outline.close()
        var messages: [String] = []
        let hull = ItemShapes.pathOutline(outline, label: "item") { messages.append($0) }
        #expect(messages.count == 1 && messages.first?.contains("concave") == true)
        guard let hull else { Issue.record("no outline"); return }
        #expect(hull.count >= 40 && hull.count <= ItemShapes.maximumPathPoints)
        let area = Double(PolygonTools.area(hull))
        #expect(area > Double.pi * radius * radius && area < Double.pi * 1.1 * radius * 1.1 * radius)
    }
}
