//! `LINE#ID` anchored edits. (Being written: issue 5.)
