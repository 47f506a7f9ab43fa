//! Where a text block's edit is found and why it was not: the one locate
//! module ([`crate::locate`]) and its explainer, under the names the engine uses.

pub(crate) use crate::locate::explain::{
    ambiguous, explain_not_found, explain_not_found_with_new, nearest_lines, quote, LocateFailure,
    Parts,
};
pub(crate) use crate::text::split_joined as section_lines;
