// Interface strings (de), area "social". Keys are dotted ("home.title"); values may hold {placeholders}.
export default {
};
