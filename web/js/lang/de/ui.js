// Interface strings (de), area "ui". Keys are dotted ("home.title"); values may hold {placeholders}.
export default {
};
