//! Reading order for boxes on a screen: rows top to bottom (a box joins the row above while
//! its middle is above that row's first box's bottom), each row left to right.

use crate::model::Rect;

/// `items` in reading order by the box `bounds` gives each.
pub(crate) fn reading_order<T>(mut items: Vec<T>, bounds: impl Fn(&T) -> Rect) -> Vec<T> {
    items.sort_by_key(|item| {
        let r = bounds(item);
        (r.top, r.left)
    });
    let mut rows: Vec<(i32, Vec<T>)> = Vec::new();
    for item in items {
        let r = bounds(&item);
        let middle = r.top + (r.bottom - r.top) / 2;
        match rows.last_mut() {
            Some((bottom, row)) if middle < *bottom => row.push(item),
            _ => rows.push((r.bottom, vec![item])),
        }
    }
    rows.into_iter()
        .flat_map(|(_, mut row)| {
            row.sort_by_key(|item| bounds(item).left);
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_top_to_bottom_and_each_left_to_right() {
        let boxes = vec![
            ("right", Rect::new(300, 12, 400, 40)),
            ("below", Rect::new(0, 60, 100, 90)),
            ("left", Rect::new(0, 10, 100, 40)),
            ("middle", Rect::new(150, 8, 250, 38)),
        ];
        let order: Vec<&str> = reading_order(boxes, |(_, r)| *r)
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(order, ["left", "middle", "right", "below"]);
    }
}
